/**
 * The job manager's goal-state decisions as one pure function: given where a
 * task is, where it should be, and its job's restart policy, what to do next
 * and why. The table follows Peloton's `_isoVersionsTaskRules`
 * (pkg/jobmgr/goalstate/task.go) and its actions (start, stop, fail retry,
 * terminated retry, delete); where ours differ, the comment says so.
 */
import { taskConfigFor } from "../job-config/merge.ts";
import type { JobConfig } from "../job-config/schema/job-config.ts";
import { jobKind } from "../job-config/task-traits.ts";
import type { JobType } from "../vocabulary/job-states.ts";
import {
  type GoalState,
  isStoppingTaskState,
  isTerminalTaskState,
  type TaskState,
  WAITING_TASK_STATES,
} from "../vocabulary/task-states.ts";
import { failureLimit, type RestartBackoff, restartDelayMs } from "./failures.ts";
import { PREEMPTED_REASON } from "./mesos.ts";
import { endedBySystem } from "./run-end.ts";

export interface TaskSnapshot {
  readonly state: TaskState;
  readonly goalState: GoalState;
  /** The current run (1 for the first). */
  readonly run: number;
  /** A run the user asked for (restart): above `run` means replace the current one. */
  readonly desiredRun?: number | undefined;
  /** Failures so far, the run that just ended included (`failureCountAfter`). */
  readonly failureCount: number;
  /** Why the task is in its state (`applyMesosUpdate`'s reason; PREEMPTED after a preemption). */
  readonly reason?: string | undefined;
}

/** What the decision needs from the job's config for this instance. */
export interface TaskPolicy {
  readonly kind: JobType;
  readonly maxFailures: number;
  /** Peloton's `preemptionPolicy.killOnPreempt`: a preempted batch task is not rerun. */
  readonly killOnPreempt: boolean;
}

export function taskPolicyFor(config: JobConfig, instance: number): TaskPolicy {
  const task = taskConfigFor(config, instance);
  return {
    kind: jobKind(config),
    maxFailures: task.restartPolicy?.maxFailures ?? 0,
    killOnPreempt: task.preemptionPolicy?.killOnPreempt ?? false,
  };
}

export type TaskDecision =
  | { readonly action: "ENQUEUE"; readonly why: "NOT_YET_STARTED" }
  | { readonly action: "KILL"; readonly why: "STOP_REQUESTED" | "RESTART_REQUESTED" }
  | {
      readonly action: "START_NEW_RUN";
      readonly why:
        | "RESTART_AFTER_FAILURE"
        | "SERVICE_ENDED"
        | "PREEMPTED"
        | "SYSTEM_ENDED"
        | "RESTART_REQUESTED";
      readonly run: number;
      readonly delayMs: number;
      readonly failureCount: number;
    }
  | {
      readonly action: "MARK_TERMINAL";
      readonly state: "KILLED" | "DELETED";
      readonly why: "NEVER_LAUNCHED" | "LOST_WHILE_STOPPING" | "DELETE_REQUESTED";
    }
  | {
      readonly action: "NONE";
      readonly why:
        | "AT_GOAL"
        | "IN_PROGRESS"
        | "STOPPING"
        | "STOPPED"
        | "RESTART_LIMIT_REACHED"
        | "KILLED_ON_PREEMPT"
        | "NO_SUCH_STATE";
      readonly failureCount?: number;
      readonly limit?: number;
    };

/** Not yet on a host: stopping it needs no kill, only leaving its queue. */
const NOT_LAUNCHED = new Set<TaskState>(WAITING_TASK_STATES);

export function nextTaskAction(
  task: TaskSnapshot,
  policy: TaskPolicy,
  backoff?: RestartBackoff,
): TaskDecision {
  const { state } = task;
  if (state === "UNKNOWN" || state === "DELETED")
    return { action: "NONE", why: state === "DELETED" ? "AT_GOAL" : "NO_SUCH_STATE" };
  if (task.goalState === "KILLED" || task.goalState === "DELETED") return towardsStopped(task);
  if (task.desiredRun !== undefined && task.desiredRun > task.run) return restartRequested(task);
  if (state === "INITIALIZED") return { action: "ENQUEUE", why: "NOT_YET_STARTED" };
  if (isStoppingTaskState(state)) return { action: "NONE", why: "STOPPING" };
  if (state === "RUNNING" && task.goalState === "RUNNING")
    return { action: "NONE", why: "AT_GOAL" };
  if (!isTerminalTaskState(state)) return { action: "NONE", why: "IN_PROGRESS" };
  return policy.kind === "BATCH" ? afterBatchRun(task, policy) : afterServiceRun(task, backoff);
}

/** Goal KILLED or DELETED (Peloton's StopAction, and DeleteAction once stopped). */
function towardsStopped(task: TaskSnapshot): TaskDecision {
  const { state } = task;
  if (NOT_LAUNCHED.has(state))
    return { action: "MARK_TERMINAL", state: "KILLED", why: "NEVER_LAUNCHED" };
  if (isStoppingTaskState(state)) return { action: "NONE", why: "STOPPING" };
  if (!isTerminalTaskState(state)) return { action: "KILL", why: "STOP_REQUESTED" };
  if (task.goalState === "DELETED")
    return { action: "MARK_TERMINAL", state: "DELETED", why: "DELETE_REQUESTED" };
  // Peloton marks a stopped task that goes LOST as KILLED.
  if (state === "LOST")
    return { action: "MARK_TERMINAL", state: "KILLED", why: "LOST_WHILE_STOPPING" };
  return { action: "NONE", why: "STOPPED" };
}

/** Peloton's `requireRestart`: a newer desired run replaces the current one. */
function restartRequested(task: TaskSnapshot): TaskDecision {
  if (isTerminalTaskState(task.state)) return newRun(task, "RESTART_REQUESTED", 0);
  if (NOT_LAUNCHED.has(task.state))
    return { action: "MARK_TERMINAL", state: "KILLED", why: "NEVER_LAUNCHED" };
  if (isStoppingTaskState(task.state)) return { action: "NONE", why: "STOPPING" };
  return { action: "KILL", why: "RESTART_REQUESTED" };
}

/**
 * Goal SUCCEEDED. Peloton's FailRetryAction: a failed or unexpectedly
 * killed run is rerun at once (no backoff) while the failure count is below
 * the restart policy's limit; past it the task stays where it ended. A
 * preempted run is rerun as a new run of the same instance without counting
 * (peloton-semantics.md §4), unless `killOnPreempt` says not to; so is a run
 * the system ended (lost with its agent, gone after a restart: `run-end.ts`).
 */
function afterBatchRun(task: TaskSnapshot, policy: TaskPolicy): TaskDecision {
  if (task.state === "SUCCEEDED") return { action: "NONE", why: "AT_GOAL" };
  if (task.reason === PREEMPTED_REASON)
    return policy.killOnPreempt
      ? { action: "NONE", why: "KILLED_ON_PREEMPT" }
      : newRun(task, "PREEMPTED", 0);
  // Not the task's failure (issue 13): it did not count, and it is rerun whatever the count.
  if (endedBySystem(task.state, task.reason)) return newRun(task, "SYSTEM_ENDED", 0);
  const limit = failureLimit(policy.maxFailures, task.reason);
  if (task.failureCount < limit) return newRun(task, "RESTART_AFTER_FAILURE", 0);
  return { action: "NONE", why: "RESTART_LIMIT_REACHED", failureCount: task.failureCount, limit };
}

/**
 * Goal RUNNING (SERVICE, STATEFUL, DAEMON). Peloton's TerminatedRetryAction:
 * whatever ended the run, start a new one after the backoff for its failure
 * count; a preemption does not add to the count, so it adds no delay.
 */
function afterServiceRun(task: TaskSnapshot, backoff?: RestartBackoff): TaskDecision {
  // Lost with its host, or ended by a restart of the cluster: replaced at once, no backoff.
  if (task.reason !== PREEMPTED_REASON && endedBySystem(task.state, task.reason))
    return newRun(task, "SYSTEM_ENDED", 0);
  const why = task.reason === PREEMPTED_REASON ? "PREEMPTED" : "SERVICE_ENDED";
  return newRun(task, why, restartDelayMs(task.failureCount, backoff));
}

function newRun(
  task: TaskSnapshot,
  why: Extract<TaskDecision, { action: "START_NEW_RUN" }>["why"],
  delayMs: number,
): TaskDecision {
  const run = Math.max(task.run + 1, task.desiredRun ?? 0);
  return { action: "START_NEW_RUN", why, run, delayMs, failureCount: task.failureCount };
}
