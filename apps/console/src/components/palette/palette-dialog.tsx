"use client";
/**
 * The palette's frame: what cmdk's Command.Dialog draws (a Radix dialog around
 * the Command), held here because cmdk hands nothing to Radix's Content, so
 * the focus could not be given back to the header button that opened the
 * palette: after Escape it would be left on <body>.
 */
import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { useReturnFocus } from "@/components/ui/use-return-focus";

export function PaletteDialog({
  open,
  onOpenChange,
  label,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's accessible name (the Command inside names its input the same). */
  label: string;
  children: ReactNode;
}) {
  const returnFocus = useReturnFocus(open);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-label={label}
          aria-describedby={undefined}
          onCloseAutoFocus={returnFocus}
          className="fixed left-1/2 top-[12vh] z-50 w-[40rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 overflow-hidden rounded-lg border border-border bg-surface text-fg shadow-2xl"
        >
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
