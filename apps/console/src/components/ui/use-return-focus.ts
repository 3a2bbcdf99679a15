"use client";
import { useLayoutEffect, useRef } from "react";

/**
 * Gives the focus back, when a dialog closes, to what had it when the dialog
 * opened. Radix does this itself only for a dialog opened by its own Trigger;
 * one opened from code (a row's drawer, one dialog for many rows, a hotkey, a
 * button outside the dialog) would leave the focus on <body> after Escape, and
 * a keyboard user would start again from the top of the page.
 *
 * Call it on every render with the dialog's `open`, and pass what it returns
 * as the Radix Content's `onCloseAutoFocus`.
 */
export function useReturnFocus(open: boolean): (event: Event) => void {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before Radix's own mount effect moves the focus into
  // the dialog, so what has it now is what opened the dialog.
  useLayoutEffect(() => {
    if (open) opener.current = openerOf(document.activeElement);
  }, [open]);
  return (event) => {
    const back = opener.current;
    opener.current = null;
    // Nothing worth going back to (the page, or an element gone since): Radix's default.
    if (!back?.isConnected || back === document.body) return;
    event.preventDefault();
    back.focus();
  };
}

const DIALOG = '[role="dialog"], [role="alertdialog"]';

/**
 * The focused element, unless it sits in another dialog: a dialog opened
 * from one that closes (a palette action asking for confirmation) would
 * otherwise remember an element about to be removed, and the focus would
 * end on <body>. It goes back to what had the focus outside every dialog.
 */
function openerOf(active: Element | null): HTMLElement | null {
  // Nothing focused (the page itself): nothing to go back to, Radix's default.
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  return active.closest(DIALOG) ? lastOutsideDialogs : active;
}

/** The last element focused outside every dialog, followed for the whole page. */
let lastOutsideDialogs: HTMLElement | null = null;

if (typeof document !== "undefined")
  document.addEventListener(
    "focusin",
    (event) => {
      const target = event.target;
      if (target instanceof HTMLElement && !target.closest(DIALOG)) lastOutsideDialogs = target;
    },
    true,
  );
