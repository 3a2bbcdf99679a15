"use client";
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ReactNode } from "react";
import { Button } from "./button";
import { useReturnFocus } from "./use-return-focus";

/**
 * Asks before an action that changes the cluster; the action's own words are
 * on the confirm button ("Drain host", "Delete pool"), never a bare "OK".
 * Either give a `trigger` (the dialog opens itself) or control it with
 * `open`/`onOpenChange` (one dialog for many rows). It stays open while the
 * action is `busy`, so a failure can be read and retried.
 */
export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  onConfirm,
  busy = false,
  confirmDisabled = false,
  tone = "default",
}: {
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  /** The dialog's input is not acceptable yet (its own text says why). */
  confirmDisabled?: boolean;
  tone?: "default" | "danger";
}) {
  // Opened from code (one dialog for many rows): what had the focus gets it back on close.
  // With a trigger, Radix gives it back to the trigger itself.
  const returnFocus = useReturnFocus(open ?? false);
  return (
    <AlertDialog.Root
      {...(open !== undefined ? { open } : {})}
      {...(onOpenChange ? { onOpenChange } : {})}
    >
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content
          {...(trigger ? {} : { onCloseAutoFocus: returnFocus })}
          className="fixed left-1/2 top-1/3 z-50 w-[28rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 rounded-lg border border-border bg-surface p-5 shadow-xl"
        >
          <AlertDialog.Title className="text-base font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-muted">{children}</div>
          </AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              variant={tone === "danger" ? "danger" : "primary"}
              onClick={onConfirm}
              disabled={busy || confirmDisabled}
            >
              {busy ? "Working…" : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
