"use client";
import { useRef } from "react";

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
  // Read while rendering the first open frame: the dialog is not mounted yet
  // and has not moved the focus, so what has it is what opened the dialog.
  if (open && opener.current === null && typeof document !== "undefined")
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return (event) => {
    const back = opener.current;
    opener.current = null;
    // Nothing worth going back to (the page, or an element gone since): Radix's default.
    if (!back?.isConnected || back === document.body) return;
    event.preventDefault();
    back.focus();
  };
}
