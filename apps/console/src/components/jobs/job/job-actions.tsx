"use client";
import type { JobVerb } from "@peloton/api/policy";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Play, RotateCcw, Scaling, Square, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { AccessNote } from "@/components/identity/access-note";
import { useAccessDecider } from "@/components/identity/use-access";
import { usePoolFacts } from "@/components/identity/use-pool-facts";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import { INPUT_CLASS } from "@/components/ui/form-field";
import type { JobDetail } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { perInstanceOf, scaleWarning } from "@/lib/scale-warning";
import { useTRPC } from "@/lib/trpc";
import { jobActionBlocks } from "../action-blocks";
import { JobUpdateActions } from "../updates/job-update-actions";

/**
 * Update, rolling restart, stop, start, restart, scale and delete — each
 * confirmed, each audited by the API as the user.
 */
export function JobActions({ job }: { job: JobDetail }) {
  const trpc = useTRPC();
  const router = useRouter();
  const state = jobActionBlocks(job);
  const pool = usePoolFacts(job.poolPath);
  const decide = useAccessDecider();
  // What the job's state allows first, then what the signed-in person may do in its pool.
  const why = (verb: JobVerb) => {
    const access = decide(pool && { kind: "job.act", verb, pool });
    return state[verb] ?? (access.allowed ? undefined : access.reason);
  };
  const blocks = {
    stop: why("stop"),
    start: why("start"),
    restart: why("restart"),
    scale: why("scale"),
    delete: why("delete"),
  };
  const [count, setCount] = useState(String(job.instanceCount));
  // The pool's limits, from the tree the pool facts come from (cached).
  const tree = useQuery(trpc.pools.tree.queryOptions());
  const poolRow = tree.data?.pools.find((p) => p.path === job.poolPath);
  const [beyondAck, setBeyondAck] = useState(false);
  const onError = (err: { message: string }) => toast.error(err.message);
  const done = (what: string) => ({
    onSuccess: (r: { instances: number[]; version: number }) =>
      toast.success(`${job.name}: ${what}`, {
        description: `${formatCount(r.instances.length)} instance${r.instances.length === 1 ? "" : "s"} changed · version ${r.version}`,
      }),
    onError,
  });
  const stop = useMutation(trpc.jobs.stop.mutationOptions(done("stopping")));
  const start = useMutation(trpc.jobs.start.mutationOptions(done("starting")));
  const restart = useMutation(trpc.jobs.restart.mutationOptions(done("restarting")));
  const scale = useMutation(trpc.jobs.scale.mutationOptions(done("scaled")));
  const remove = useMutation(
    trpc.jobs.delete.mutationOptions({
      onSuccess: () => {
        toast.success(`${job.name} is being deleted`);
        router.push("/jobs");
      },
      onError,
    }),
  );
  const ref = { id: job.id, version: job.version };
  const newCount = Number(count);
  const countProblem =
    !/^\d+$/.test(count) || newCount > 100_000
      ? "a whole number from 0 to 100,000"
      : newCount === job.instanceCount
        ? "the job already has this many instances"
        : undefined;
  const beyond =
    !countProblem && poolRow && newCount > job.instanceCount
      ? scaleWarning(
          newCount,
          perInstanceOf(job.config),
          {
            cpu: poolRow.resources.cpu.limit,
            memory: poolRow.resources.memory.limit,
            disk: poolRow.resources.disk.limit,
            gpu: poolRow.resources.gpu.limit,
          },
          job.poolPath,
        )
      : null;

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap items-center justify-end gap-2" data-testid="job-actions">
        <JobUpdateActions job={job} denied={why("restart")} />
        <ConfirmedAction
          label="Stop"
          icon={<Square className="size-3.5" aria-hidden />}
          tone="danger"
          disabledReason={blocks.stop}
          title={`Stop ${job.name}?`}
          confirmLabel="Stop job"
          onConfirm={() => stop.mutateAsync(ref)}
        >
          <p>
            Its {formatCount(job.instanceCount)} instances are killed and the job ends KILLED. It
            can be started again.
          </p>
        </ConfirmedAction>
        <ConfirmedAction
          label="Start"
          icon={<Play className="size-3.5" aria-hidden />}
          disabledReason={blocks.start}
          title={`Start ${job.name} again?`}
          confirmLabel="Start job"
          onConfirm={() => start.mutateAsync(ref)}
        >
          <p>
            Instances that ended get a new run
            {job.type === "BATCH" ? "; succeeded ones stay done" : ""}.
          </p>
        </ConfirmedAction>
        <ConfirmedAction
          label="Restart"
          icon={<RotateCcw className="size-3.5" aria-hidden />}
          disabledReason={blocks.restart}
          title={`Restart every instance of ${job.name}?`}
          confirmLabel="Restart job"
          onConfirm={() => restart.mutateAsync(ref)}
        >
          <p>Every instance gets a new run; running ones are killed first.</p>
        </ConfirmedAction>
        <ConfirmedAction
          label="Scale"
          icon={<Scaling className="size-3.5" aria-hidden />}
          disabledReason={blocks.scale}
          title={`Scale ${job.name}`}
          confirmLabel={countProblem ? "Scale" : `Scale to ${formatCount(newCount)}`}
          confirmDisabled={!!countProblem || (beyond !== null && !beyondAck)}
          onConfirm={() => scale.mutateAsync({ ...ref, instanceCount: newCount })}
        >
          <label className="mt-1 flex flex-col gap-1 text-fg">
            <span className="text-xs text-muted">
              Instances (now {formatCount(job.instanceCount)})
            </span>
            <input
              inputMode="numeric"
              value={count}
              onChange={(e) => {
                setCount(e.target.value.trim());
                setBeyondAck(false);
              }}
              aria-invalid={!!countProblem && count !== String(job.instanceCount)}
              className={INPUT_CLASS}
              data-testid="scale-input"
            />
          </label>
          <p className="mt-2 text-xs">
            {countProblem
              ? `Give ${countProblem === "the job already has this many instances" ? "another count" : countProblem}.`
              : newCount > job.instanceCount
                ? `${formatCount(newCount - job.instanceCount)} new instances are queued.`
                : `Instances ${formatCount(newCount)} to ${formatCount(job.instanceCount - 1)} are killed and deleted.`}
          </p>
          {beyond && (
            <div
              role="alert"
              className="mt-2 rounded-md border border-warn/50 bg-warn/10 p-2 text-xs text-fg"
              data-testid="scale-beyond-limit"
            >
              <p>{beyond.words}</p>
              <label className="mt-1 flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={beyondAck}
                  onChange={(e) => setBeyondAck(e.target.checked)}
                />
                Scale beyond the limit anyway
              </label>
            </div>
          )}
        </ConfirmedAction>
        <ConfirmedAction
          label="Delete"
          icon={<Trash2 className="size-3.5" aria-hidden />}
          tone="danger"
          disabledReason={blocks.delete}
          title={`Delete ${job.name}?`}
          confirmLabel="Delete job"
          onConfirm={() => remove.mutateAsync(ref)}
        >
          <p>
            Every instance is killed, then the job and its tasks are marked DELETED. Their history
            stays readable.
          </p>
        </ConfirmedAction>
      </div>
      <AccessNote access={decide(pool && { kind: "job.act", verb: "restart", pool })} />
    </div>
  );
}
