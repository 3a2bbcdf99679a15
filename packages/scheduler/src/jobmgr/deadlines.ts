/**
 * Runs past their job's `sla.maxRunningTime` (Peloton's deadline tracker):
 * each is given the goal KILLED and moved to KILLING with the reason
 * DEADLINE_TIMEOUT_EXCEEDED in one guarded change with its event; the kill
 * goes out once the change is written. With the goal KILLED the run is not
 * rerun (a batch task's end is not a failure to retry), and its end keeps
 * the reason (status-updates.ts, `endReasonAfterKill`).
 */
import { DEADLINE_EXCEEDED_REASON, describeDeadlineKill, isPastDeadline } from "@peloton/engine";
import type { TaskChange, TaskRunRow } from "@peloton/storage";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import type { KillOrder } from "../taskwriter/kill-order.ts";

export interface DeadlineRun extends TaskRunRow {
  maxRunningTime: number;
  startedAt: Date | null;
}

export interface DeadlineKill {
  change: TaskChange;
  kill: KillOrder | null;
}

/** The kill of one run past its deadline at `now`; null when it is not (the clock is the caller's). */
export function deadlineKill(run: DeadlineRun, now: Date): DeadlineKill | null {
  if (run.state !== "RUNNING" || !isPastDeadline(run.startedAt, run.maxRunningTime, now))
    return null;
  const message = describeDeadlineKill(run.maxRunningTime);
  return {
    change: {
      taskId: run.taskId,
      jobId: run.jobId,
      instanceId: run.instanceId,
      expect: { state: run.state, runId: run.runId },
      state: "KILLING",
      reason: DEADLINE_EXCEEDED_REASON,
      message,
      set: { goalState: "KILLED" },
      events: [
        {
          runId: run.runId,
          clusterTaskId: run.clusterTaskId,
          previousState: run.state,
          state: "KILLING",
          source: EVENT_SOURCES.jobManager,
          reason: DEADLINE_EXCEEDED_REASON,
          message,
          hostname: run.hostname,
          agentId: run.agentId,
          at: now,
        },
      ],
    },
    kill:
      run.clusterTaskId === null
        ? null
        : {
            taskId: run.taskId,
            jobId: run.jobId,
            instanceId: run.instanceId,
            clusterTaskId: run.clusterTaskId,
            agentId: run.agentId,
          },
  };
}
