/**
 * Why a run ended, as far as its task is to blame: the one place that says
 * which ends are the task's own failures (they count towards its restart
 * policy and its backoff, and the console shows them as failures) and which
 * the system caused (issue 13: a scheduler restart, a lost or restarted
 * agent, a maintenance eviction, a preemption must not count).
 *
 * Peloton's rule (pkg/jobmgr/task/event/update.go `updateFailureCount`)
 * counts a FAILED run, a run that exited (SUCCEEDED) while it should keep
 * running, and a KILLED run nobody asked to stop, and never a LOST one.
 * Ours follows it and adds: a run ended while a kill we sent was under way
 * is the end we asked for; a reason that blames the agent, the executor or
 * the master is the system's, whatever the state it came with (an agent
 * that restarts reports its tasks FAILED with REASON_EXECUTOR_TERMINATED);
 * a preemption is its own cause (peloton-semantics.md §4).
 */

import { type GoalState, isTerminalTaskState, type TaskState } from "../vocabulary/task-states.ts";
import { PREEMPTED_REASON } from "./mesos.ts";

export type RunEndCause =
  /** The task's own doing: counts as a failure. */
  | "TASK_FAILURE"
  /** The cluster or the scheduler ended it (agent lost or restarted, reconciliation, eviction). */
  | "SYSTEM"
  /** A preemption killed it (ours, or the cluster's QoS controller). */
  | "PREEMPTION"
  /** A kill the scheduler sent for a stop, a restart, a deletion or a scale-down. */
  | "REQUESTED"
  /** It finished as it should (a batch task that succeeded). */
  | "DONE"
  /** Not an end: the run goes on. */
  | "NOT_ENDED";

export interface RunEnd {
  /** The state the run was in before it ended (KILLING: we were stopping it). */
  readonly from: TaskState;
  readonly ended: TaskState;
  readonly goalState: GoalState;
  /** The stored reason: Mesos' reason, else its state name; PREEMPTED after a preemption. */
  readonly reason?: string | null | undefined;
}

/**
 * Reasons that blame the cluster, not the task: every way of losing or
 * restarting the agent (Mesos' names and the older SLAVE spellings), an
 * executor that went away or did not come back, the master or the
 * framework gone, a task the master no longer knows (a reconciliation
 * answer, or the answer to a kill of a task it forgot), offers that were no
 * longer valid (Peloton's `IsSystemFailure`).
 */
const SYSTEM_REASONS: ReadonlySet<string> = new Set([
  "REASON_AGENT_DISCONNECTED",
  "REASON_AGENT_REMOVED",
  "REASON_AGENT_REMOVED_BY_OPERATOR",
  "REASON_AGENT_RESTARTED",
  "REASON_AGENT_UNKNOWN",
  "REASON_SLAVE_DISCONNECTED",
  "REASON_SLAVE_REMOVED",
  "REASON_SLAVE_RESTARTED",
  "REASON_SLAVE_UNKNOWN",
  "REASON_EXECUTOR_TERMINATED",
  "REASON_EXECUTOR_UNREGISTERED",
  "REASON_EXECUTOR_REREGISTRATION_TIMEOUT",
  "REASON_MASTER_DISCONNECTED",
  "REASON_FRAMEWORK_REMOVED",
  "REASON_RECONCILIATION",
  "REASON_TASK_UNKNOWN",
  "REASON_INVALID_OFFERS",
  "REASON_RESOURCES_UNKNOWN",
  "REASON_GC_ERROR",
]);

/** Mesos' QoS controller taking back revocable resources: a preemption by the cluster. */
const CLUSTER_PREEMPTION_REASON = "REASON_CONTAINER_PREEMPTED";

export function isSystemReason(reason: string | null | undefined): boolean {
  return reason != null && SYSTEM_REASONS.has(reason);
}

export function runEndCause(end: RunEnd): RunEndCause {
  const { from, ended, goalState, reason } = end;
  if (!isTerminalTaskState(ended)) return "NOT_ENDED";
  if (reason === PREEMPTED_REASON || reason === CLUSTER_PREEMPTION_REASON || from === "PREEMPTING")
    return "PREEMPTION";
  // Whatever it reported, a run we were killing ended because we asked.
  if (from === "KILLING") return "REQUESTED";
  // The cluster lost it: the agent, its partition, or the master's memory of it.
  if (ended === "LOST" || isSystemReason(reason)) return "SYSTEM";
  const stopping = goalState === "KILLED" || goalState === "DELETED";
  switch (ended) {
    case "FAILED":
      return "TASK_FAILURE";
    case "SUCCEEDED":
      return goalState === "RUNNING" ? "TASK_FAILURE" : "DONE";
    case "KILLED":
      // A kill that reached the run before its KILLING was written was still ours.
      return stopping ? "REQUESTED" : "TASK_FAILURE";
    default:
      return "NOT_ENDED";
  }
}

/**
 * The state and stored reason alone say the system ended the run (what the
 * goal-state decision sees once the end is written): LOST, or a reason
 * that blames the agent, the executor or the master.
 */
export function endedBySystem(state: TaskState, reason: string | null | undefined): boolean {
  return isTerminalTaskState(state) && (state === "LOST" || isSystemReason(reason));
}

/** Whether this end adds to the task's failure count. */
export function countsAsFailure(end: RunEnd): boolean {
  return runEndCause(end) === "TASK_FAILURE";
}
