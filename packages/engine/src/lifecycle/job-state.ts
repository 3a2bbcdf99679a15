/**
 * A job's state from its tasks' states: Peloton's `jobStateDeterminer`
 * (pkg/jobmgr/goalstate/job_runtime_updater.go) for batch jobs, and ours for
 * the long-running kinds, which never complete while they should run.
 */
import type { JobState, JobType } from "../vocabulary/job-states.ts";
import type { GoalState, TaskState } from "../vocabulary/task-states.ts";

export type TaskStateCounts = Partial<Record<TaskState, number>>;

export interface JobStateOptions {
  /**
   * The state of instance 0 when it is a controller task: once a batch job
   * has ended, its state is the controller's (Peloton's
   * `controllerTaskJobStateDeterminer`).
   */
  readonly controllerState?: TaskState | undefined;
}

/**
 * `instanceCount` is the number of instances the job should have (for a
 * DAEMON, the instances it has now: one per eligible host). A batch task that
 * will be retried is restarted at once, so a FAILED or LOST count here means
 * failed beyond its restart policy.
 */
export function deriveJobState(
  type: JobType,
  goalState: GoalState,
  counts: TaskStateCounts,
  instanceCount: number,
  options: JobStateOptions = {},
): JobState {
  const c = (s: TaskState) => counts[s] ?? 0;
  const ended = c("SUCCEEDED") + c("FAILED") + c("LOST") + c("KILLED");
  if (goalState === "DELETED" && c("DELETED") >= instanceCount) return "DELETED";
  if (type !== "BATCH") {
    // Services keep RUNNING while they should run; stopping ends in KILLED.
    if (goalState === "KILLED" || goalState === "DELETED")
      return ended + c("DELETED") >= instanceCount ? "KILLED" : "KILLING";
    return c("RUNNING") > 0 || instanceCount === 0 ? "RUNNING" : "PENDING";
  }
  const batchEnd = batchEndState(c, ended, instanceCount);
  if (batchEnd !== null) return controllerDecides(batchEnd, options.controllerState);
  if (goalState === "KILLED" || goalState === "DELETED") return "KILLING";
  return c("RUNNING") > 0 ? "RUNNING" : "PENDING";
}

/** Peloton's order: all succeeded; else all ended without kills; else ended with a kill. */
function batchEndState(
  c: (s: TaskState) => number,
  ended: number,
  instanceCount: number,
): JobState | null {
  if (c("SUCCEEDED") >= instanceCount) return "SUCCEEDED";
  if (c("SUCCEEDED") + c("FAILED") + c("LOST") >= instanceCount) return "FAILED";
  if (c("KILLED") > 0 && ended >= instanceCount) return "KILLED";
  return null;
}

function controllerDecides(state: JobState, controller: TaskState | undefined): JobState {
  switch (controller) {
    case undefined:
      return state;
    case "SUCCEEDED":
      return "SUCCEEDED";
    case "FAILED":
    case "LOST":
      return "FAILED";
    default:
      return "KILLED";
  }
}
