"use client";
/**
 * Start or complete a host's maintenance (Peloton's StartMaintenance and
 * CompleteMaintenance), confirmed, with a reason: the CLI's `-r`, kept in
 * the host's maintenance history, its state reason and the audit log. Used
 * by the hosts list and the host page.
 */
import { hostActionInput } from "@peloton/api/schemas";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { formatCount } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";

export type MaintenanceKind = "start" | "complete";

export interface MaintenanceTarget {
  kind: MaintenanceKind;
  hostname: string;
  state: string;
  tasks: number;
}

export function MaintenanceDialog({
  target,
  onClose,
}: {
  target: MaintenanceTarget | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const [reason, setReason] = useState("");
  const close = () => {
    setReason("");
    onClose();
  };
  const options = (done: string) => ({
    onSuccess: (h: { hostname: string; state: string }) => {
      toast.success(`${h.hostname} is ${h.state}`, { description: done });
      close();
    },
    onError: (err: { message: string }) => toast.error(err.message),
  });
  const start = useMutation(
    trpc.hosts.startMaintenance.mutationOptions(
      options("Nothing new is placed there; its tasks are moved elsewhere."),
    ),
  );
  const complete = useMutation(
    trpc.hosts.completeMaintenance.mutationOptions(options("It comes back UP and takes work.")),
  );
  const checked = hostActionInput.shape.reason.safeParse(reason);
  const error = checked.success ? undefined : checked.error.issues[0]?.message;
  const starting = target?.kind === "start";
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => !open && close()}
      title={
        starting
          ? `Start maintenance on ${target?.hostname}?`
          : `Complete maintenance on ${target?.hostname}?`
      }
      confirmLabel={starting ? "Start maintenance" : "Complete maintenance"}
      tone={starting ? "danger" : "default"}
      busy={start.isPending || complete.isPending}
      confirmDisabled={error !== undefined}
      onConfirm={() => {
        if (!target || !checked.success) return;
        const mutation = starting ? start : complete;
        mutation.mutate({ hostname: target.hostname, reason: checked.data });
      }}
    >
      {starting ? (
        <p>
          Nothing new is placed on it from now on. Its {formatCount(target?.tasks ?? 0)} task
          {target?.tasks === 1 ? " is" : "s are"} evicted and started elsewhere, never taking a job
          below its SLA (sla.maximumUnavailableInstances). Once empty it is DRAINED, then DOWN on
          the cluster.
        </p>
      ) : (
        <p>
          It leaves the cluster's maintenance and comes back UP{" "}
          {target?.state === "DOWN" ? "once its agent registers" : "at once"}; new tasks may be
          placed on it again.
        </p>
      )}
      <FormField
        label="Reason"
        error={error}
        hint="Kept in the host's maintenance history and the audit log."
        className="mt-3 text-fg"
      >
        {(ids) => (
          <input
            {...ids}
            type="text"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={starting ? "kernel upgrade, disk swap…" : "done"}
            className="h-8 rounded-md border border-border bg-surface px-2"
          />
        )}
      </FormField>
    </ConfirmDialog>
  );
}
