/**
 * How a run ended, in Peloton's TerminationStatus words (task.proto
 * `TerminationStatus.Reason`, printed without its TERMINATION_STATUS_REASON_
 * prefix, as Peloton's `task list` does; the API sends the enum). Derived
 * from what the row already says: a run that has not ended has none, and
 * neither has one that simply finished (a batch task that succeeded).
 */
import { HOST_MAINTENANCE_REASON } from "../maintenance/evictions.ts";
import { type GoalState, isTerminalTaskState, type TaskState } from "../vocabulary/task-states.ts";
import { JOB_UPDATE_REASON, RESTART_REQUESTED_REASON } from "./kill-ends.ts";
import { DEADLINE_EXCEEDED_REASON } from "./max-running-time.ts";
import { PREEMPTED_REASON } from "./mesos.ts";

export type TerminationStatus =
  | "KILLED_ON_REQUEST"
  | "FAILED"
  | "KILLED_HOST_MAINTENANCE"
  | "PREEMPTED_RESOURCES"
  | "DEADLINE_TIMEOUT_EXCEEDED"
  | "KILLED_FOR_UPDATE"
  | "KILLED_FOR_RESTART";

/** Mesos' QoS controller taking back revocable resources: a preemption as well. */
const CLUSTER_PREEMPTION_REASON = "REASON_CONTAINER_PREEMPTED";

export function terminationStatus(t: {
  state: TaskState;
  goalState: GoalState;
  reason: string | null;
}): TerminationStatus | null {
  if (!isTerminalTaskState(t.state) || t.state === "SUCCEEDED") return null;
  if (t.reason === PREEMPTED_REASON || t.reason === CLUSTER_PREEMPTION_REASON)
    return "PREEMPTED_RESOURCES";
  if (t.reason === HOST_MAINTENANCE_REASON) return "KILLED_HOST_MAINTENANCE";
  if (t.reason === DEADLINE_EXCEEDED_REASON) return "DEADLINE_TIMEOUT_EXCEEDED";
  if (t.reason === JOB_UPDATE_REASON) return "KILLED_FOR_UPDATE";
  if (t.reason === RESTART_REQUESTED_REASON) return "KILLED_FOR_RESTART";
  if (t.state === "FAILED") return "FAILED";
  if (t.state === "KILLED" && (t.goalState === "KILLED" || t.goalState === "DELETED"))
    return "KILLED_ON_REQUEST";
  // LOST, or killed by nobody's request: Peloton sets no termination status.
  return null;
}
