"use client";
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useReturnFocus } from "@/components/ui/use-return-focus";

/**
 * A dialog holding a small form (new user, new password, …): its own submit
 * button with the action's words, the server's refusal shown inside it so the
 * input is kept and can be corrected.
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  busy,
  submitDisabledReason,
  error,
  onSubmit,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  submitLabel: string;
  busy: boolean;
  /** Why the form cannot be sent yet (also shown on the button's hover). */
  submitDisabledReason?: string | undefined;
  error: string | null;
  onSubmit: () => void;
  children: ReactNode;
}) {
  // Opened by a button outside it (New user, a row's Edit): Escape gives that button the focus back.
  const returnFocus = useReturnFocus(open);
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          onCloseAutoFocus={returnFocus}
          className="fixed left-1/2 top-[12vh] z-50 max-h-[80vh] w-[32rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 overflow-y-auto rounded-lg border border-border bg-surface p-5 shadow-xl"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="font-semibold">{title}</Dialog.Title>
              <Dialog.Description className="text-muted">{description ?? ""}</Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" size="sm" aria-label="Close">
                <X className="size-4" aria-hidden />
              </Button>
            </Dialog.Close>
          </div>
          <form
            noValidate
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              if (!submitDisabledReason && !busy) onSubmit();
            }}
          >
            {children}
            {error && (
              <p role="alert" className="text-xs text-bad" data-testid="dialog-error">
                {error}
              </p>
            )}
            <div className="flex justify-end gap-2 pt-2">
              <Dialog.Close asChild>
                <Button disabled={busy}>Cancel</Button>
              </Dialog.Close>
              <Button
                type="submit"
                variant="primary"
                disabled={busy || !!submitDisabledReason}
                title={submitDisabledReason}
              >
                {busy ? "Saving…" : submitLabel}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
