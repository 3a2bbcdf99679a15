"use client";
import { type ReactNode, useState } from "react";
import { Button } from "./button";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * A button for an action that changes the cluster: asks first, and when the
 * action does not apply, stays visible but disabled with the reason on hover
 * (what may not be done is explained, not hidden).
 */
export function ConfirmedAction({
  label,
  icon,
  disabledReason,
  title,
  children,
  confirmLabel,
  tone = "default",
  confirmDisabled = false,
  onConfirm,
}: {
  label: string;
  icon?: ReactNode;
  disabledReason?: string | undefined;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  tone?: "default" | "danger";
  confirmDisabled?: boolean;
  /** Resolves when done; the dialog closes then, and stays open on failure so it can be read. */
  onConfirm: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const button = (
    <Button
      size="sm"
      variant={tone === "danger" ? "danger" : "secondary"}
      disabledReason={disabledReason}
    >
      {icon}
      {label}
    </Button>
  );
  if (disabledReason) return button;
  // The button is the dialog's trigger: Escape or Cancel give it the focus back.
  return (
    <ConfirmDialog
      trigger={button}
      open={open}
      onOpenChange={(o) => !busy && setOpen(o)}
      title={title}
      confirmLabel={confirmLabel}
      tone={tone}
      busy={busy}
      confirmDisabled={confirmDisabled}
      onConfirm={() => {
        setBusy(true);
        onConfirm()
          .then(() => setOpen(false))
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
    >
      {children}
    </ConfirmDialog>
  );
}
