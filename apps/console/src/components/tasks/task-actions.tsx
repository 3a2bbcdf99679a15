"use client";
import type { TaskVerb } from "@peloton/api/policy";
import { useMutation } from "@tanstack/react-query";
import { Play, RotateCcw, Square } from "lucide-react";
import { toast } from "sonner";
import { AccessNote } from "@/components/identity/access-note";
import { useAccessDecider } from "@/components/identity/use-access";
import { usePoolFacts } from "@/components/identity/use-pool-facts";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import type { TaskDetail } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { taskActionBlocks } from "../jobs/action-blocks";

/** Stop, start or restart this one instance (the job's goal stays, unless the stop ends its only instance). */
export function TaskActions({ task }: { task: TaskDetail }) {
  const trpc = useTRPC();
  const state = taskActionBlocks(task);
  const pool = usePoolFacts(task.job.poolPath);
  const decide = useAccessDecider();
  // What the instance's state allows first, then what the signed-in person may do in its pool.
  const why = (verb: TaskVerb) => {
    const access = decide(pool && { kind: "task.act", verb, pool });
    return state[verb] ?? (access.allowed ? undefined : access.reason);
  };
  const blocks = { stop: why("stop"), start: why("start"), restart: why("restart") };
  const who = `instance ${task.instanceId} of ${task.job.name}`;
  const done = (what: string) => ({
    onSuccess: () => toast.success(`${who}: ${what}`),
    onError: (err: { message: string }) => toast.error(err.message),
  });
  const stop = useMutation(trpc.tasks.stop.mutationOptions(done("stopping")));
  const start = useMutation(trpc.tasks.start.mutationOptions(done("starting a new run")));
  const restart = useMutation(trpc.tasks.restart.mutationOptions(done("restarting")));
  const input = {
    jobId: task.jobId,
    instances: [{ from: task.instanceId, to: task.instanceId }],
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap gap-2" data-testid="task-actions">
        <ConfirmedAction
          label="Stop"
          icon={<Square className="size-3.5" aria-hidden />}
          tone="danger"
          disabledReason={blocks.stop}
          title={`Stop ${who}?`}
          confirmLabel="Stop instance"
          onConfirm={() => stop.mutateAsync(input)}
        >
          <p>Its run is killed and it stays stopped until it is started again.</p>
        </ConfirmedAction>
        <ConfirmedAction
          label="Start"
          icon={<Play className="size-3.5" aria-hidden />}
          disabledReason={blocks.start}
          title={`Start ${who}?`}
          confirmLabel="Start instance"
          onConfirm={() => start.mutateAsync(input)}
        >
          <p>It gets a new run (run {task.runId + 1}).</p>
        </ConfirmedAction>
        <ConfirmedAction
          label="Restart"
          icon={<RotateCcw className="size-3.5" aria-hidden />}
          disabledReason={blocks.restart}
          title={`Restart ${who}?`}
          confirmLabel="Restart instance"
          onConfirm={() => restart.mutateAsync(input)}
        >
          <p>Its current run is killed first, then it gets a new run.</p>
        </ConfirmedAction>
      </div>
      <AccessNote access={decide(pool && { kind: "task.act", verb: "restart", pool })} />
    </div>
  );
}
