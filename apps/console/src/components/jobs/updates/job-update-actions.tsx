"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { FilePenLine, RefreshCcw } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import { INPUT_CLASS } from "@/components/ui/form-field";
import { describeApiError } from "@/lib/api-errors";
import type { JobDetail } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";
import { isActiveUpdate, jobUpdateBlocks } from "./update-blocks";
import { UpdateDialog } from "./update-dialog";

/** A batch size typed in a field: a whole number from 1 to the job's instance count, else why not. */
export function batchSizeProblem(text: string, instanceCount: number): string | undefined {
  if (!/^\d+$/.test(text)) return "a whole number of instances";
  const n = Number(text);
  if (n < 1) return "at least 1 instance";
  if (n > Math.max(1, instanceCount))
    return `at most the job's ${formatCount(instanceCount)} instances`;
  return undefined;
}

/**
 * A job's update (new configuration, rolled out in batches) and rolling
 * restart (every instance restarted, a batch at a time): confirmed, and
 * disabled with the reason when the job or the person may not.
 */
export function JobUpdateActions({
  job,
  denied,
}: {
  job: JobDetail;
  /** Why the signed-in person may not update this job. */
  denied: string | undefined;
}) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const [batch, setBatch] = useState("1");
  const latest = useQuery(trpc.updates.list.queryOptions({ jobId: job.id, limit: 1 }));
  const current = latest.data?.items[0];
  const active = current && isActiveUpdate(current) ? current : null;
  const blocks = jobUpdateBlocks(job);
  const restart = useMutation(
    trpc.jobs.restart.mutationOptions({
      onSuccess: () =>
        toast.success(`${job.name}: rolling restart started`, {
          description: `batches of ${batch}`,
        }),
      onError: (err) =>
        toast.error("The rolling restart was not started", { description: describeApiError(err) }),
    }),
  );
  const problem = batchSizeProblem(batch, job.instanceCount);
  const restartBlocked =
    blocks.rollingRestart ??
    denied ??
    (active ? `an update is in progress (${active.state}): pause or abort it first` : undefined);

  return (
    <>
      <Button
        size="sm"
        disabledReason={blocks.update ?? denied}
        onClick={() => setEditing(true)}
        data-testid="update-job"
      >
        <FilePenLine className="size-3.5" aria-hidden />
        Update
      </Button>
      {editing && (
        <UpdateDialog
          job={job}
          open={editing}
          onOpenChange={setEditing}
          activeUpdate={active ? { id: active.id, state: active.state } : null}
        />
      )}
      <ConfirmedAction
        label="Rolling restart"
        icon={<RefreshCcw className="size-3.5" aria-hidden />}
        disabledReason={restartBlocked}
        title={`Restart ${job.name} in batches?`}
        confirmLabel={problem ? "Restart" : `Restart in batches of ${batch}`}
        confirmDisabled={!!problem}
        onConfirm={() =>
          restart.mutateAsync({ id: job.id, version: job.version, batchSize: Number(batch) })
        }
      >
        <label className="mt-1 flex flex-col gap-1 text-fg">
          <span className="text-xs text-muted">
            Batch size (of {formatCount(job.instanceCount)} instances)
          </span>
          <input
            inputMode="numeric"
            value={batch}
            onChange={(e) => setBatch(e.target.value.trim())}
            aria-invalid={!!problem}
            className={INPUT_CLASS}
            data-testid="restart-batch-size"
          />
        </label>
        <p className="mt-2 text-xs">
          {problem
            ? `The batch size is ${problem}.`
            : `Each instance gets a new run on its current version, ${batch} at a time; the next batch starts when these run${job.type === "BATCH" ? "" : " (and are healthy, with a health check)"}.`}
        </p>
      </ConfirmedAction>
    </>
  );
}
