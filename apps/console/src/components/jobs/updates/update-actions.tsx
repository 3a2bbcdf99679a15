"use client";
import { useMutation } from "@tanstack/react-query";
import { Ban, Pause, Play, Undo2 } from "lucide-react";
import { toast } from "sonner";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import { describeApiError } from "@/lib/api-errors";
import { formatCount } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";
import { updateActionBlocks } from "./update-blocks";
import type { UpdateView } from "./update-types";

/**
 * Pause, resume, abort and rollback of one update, each confirmed and
 * audited by the API as the user; what does not apply now (or to this
 * person: `denied`) stays visible, disabled with the reason.
 */
export function UpdateActions({
  update,
  denied,
}: {
  update: UpdateView;
  /** Why the signed-in person may not act on this job's updates at all. */
  denied: string | undefined;
}) {
  const trpc = useTRPC();
  const blocks = updateActionBlocks(update);
  const why = (verb: keyof typeof blocks) => blocks[verb] ?? denied;
  const done = (what: string) => ({
    onSuccess: (u: UpdateView) =>
      toast.success(`Update ${what}`, { description: `now ${u.state}` }),
    onError: (err: { message: string; data?: unknown }) =>
      toast.error(`The update was not ${what}`, { description: describeApiError(err) }),
  });
  const pause = useMutation(trpc.updates.pause.mutationOptions(done("paused")));
  const resume = useMutation(trpc.updates.resume.mutationOptions(done("resumed")));
  const abort = useMutation(trpc.updates.abort.mutationOptions(done("aborted")));
  const rollback = useMutation(trpc.updates.rollback.mutationOptions(done("rolled back")));
  const ref = { id: update.id };
  const left = formatCount(update.numTasksRemaining);

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="update-actions">
      <ConfirmedAction
        label="Pause"
        icon={<Pause className="size-3.5" aria-hidden />}
        disabledReason={why("pause")}
        title="Pause the update?"
        confirmLabel="Pause update"
        onConfirm={() => pause.mutateAsync(ref)}
      >
        <p>
          Instances being replaced now finish; no new batch starts until it is resumed. {left}{" "}
          instances are still to go.
        </p>
      </ConfirmedAction>
      <ConfirmedAction
        label="Resume"
        icon={<Play className="size-3.5" aria-hidden />}
        disabledReason={why("resume")}
        title="Resume the update?"
        confirmLabel="Resume update"
        onConfirm={() => resume.mutateAsync(ref)}
      >
        <p>It goes on with the next batch ({left} instances to go).</p>
      </ConfirmedAction>
      <ConfirmedAction
        label="Abort"
        icon={<Ban className="size-3.5" aria-hidden />}
        tone="danger"
        disabledReason={why("abort")}
        title="Abort the update?"
        confirmLabel="Abort update"
        onConfirm={() => abort.mutateAsync(ref)}
      >
        <p>
          It stops where it is: instances already on version {update.toVersion} stay there, the
          others stay on version {update.fromVersion}. It cannot be resumed.
        </p>
      </ConfirmedAction>
      <ConfirmedAction
        label="Roll back"
        icon={<Undo2 className="size-3.5" aria-hidden />}
        tone="danger"
        disabledReason={why("rollback")}
        title={`Roll back to version ${update.fromVersion}?`}
        confirmLabel="Roll back"
        onConfirm={() => rollback.mutateAsync(ref)}
      >
        <p>
          Instances already moved to version {update.toVersion} go back to version{" "}
          {update.fromVersion}, in batches of the same size.
        </p>
      </ConfirmedAction>
    </div>
  );
}
