"use client";
/**
 * Leaving a form with unsaved changes asks first (issue #19 item 5): a
 * reload, a closed tab or a link to another site gets the browser's own
 * question (beforeunload); a link inside the console asks "Leave without
 * saving?" before the router moves. The question is the browser's confirm:
 * it is modal, keyboard-operable and read out by screen readers.
 */
import { useEffect } from "react";

/** The question asked before a link inside the console leaves the form. */
export function leaveQuestion(what: string): string {
  return `Leave without saving? Your changes to ${what} will be lost.`;
}

/** The link a click follows inside the console, or null (a new tab, a download, elsewhere). */
function inAppLink(e: MouseEvent): URL | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
    return null;
  const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
  if (!(a instanceof HTMLAnchorElement) || a.target === "_blank" || a.hasAttribute("download"))
    return null;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  // The same page (an anchor, or the query string it already has) leaves nothing.
  if (url.pathname === window.location.pathname && url.search === window.location.search)
    return null;
  return url;
}

export function useUnsavedChangesGuard(dirty: boolean, what: string): void {
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the question only when returnValue is set.
      e.returnValue = "";
    };
    // Capture phase on the document: before the router's own click handler on the root.
    const click = (e: MouseEvent) => {
      if (!inAppLink(e)) return;
      if (window.confirm(leaveQuestion(what))) return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, [dirty, what]);
}
