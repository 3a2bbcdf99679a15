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

/** What each form on the page with unsaved changes holds (usually one). */
const unsaved = new Set<{ what: string }>();

/**
 * Asks before code (the palette) moves the router away from unsaved
 * changes; true when there are none or the person chose to leave.
 */
export function confirmLeaving(): boolean {
  const [first] = unsaved;
  return first === undefined || window.confirm(leaveQuestion(first.what));
}

/** Marks the extra entry (beside the router's own state), so a form dirty again reuses it. */
const GUARD_KEY = "__pelotonUnsavedGuard";

function pushGuardEntry(): void {
  const state: unknown = window.history.state;
  if (typeof state === "object" && state !== null && GUARD_KEY in state) return;
  const base = typeof state === "object" && state !== null ? state : {};
  window.history.pushState({ ...base, [GUARD_KEY]: true }, "", window.location.href);
}

/**
 * Back moves the history before any page code runs and cannot be cancelled,
 * so while the form is dirty one more entry of the same address is pushed:
 * Back lands on it, still on the form, and asks. Leaving goes back past it;
 * staying pushes it again.
 */
function guardBack(what: string): () => void {
  pushGuardEntry();
  let active = true;
  const popstate = () => {
    if (!active) return;
    if (window.confirm(leaveQuestion(what))) {
      active = false;
      window.history.back();
    } else {
      pushGuardEntry();
    }
  };
  window.addEventListener("popstate", popstate);
  return () => {
    active = false;
    window.removeEventListener("popstate", popstate);
  };
}

export function useUnsavedChangesGuard(dirty: boolean, what: string): void {
  useEffect(() => {
    if (!dirty) return;
    const entry = { what };
    unsaved.add(entry);
    const unguardBack = guardBack(what);
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
      unsaved.delete(entry);
      unguardBack();
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, [dirty, what]);
}
