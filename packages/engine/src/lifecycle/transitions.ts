/**
 * The legal task state changes: Peloton's resource-manager state machine
 * (pkg/resmgr/task/rmtask.go `createStateMachine`) for the admission and
 * placement half, its job manager (status updates, goal-state actions) for
 * the rest, in one table. A new run of an instance starts at INITIALIZED.
 */
import { TERMINAL_TASK_STATES as ENDED, type TaskState } from "../vocabulary/task-states.ts";

export const TASK_TRANSITIONS: Readonly<Record<TaskState, readonly TaskState[]>> = {
  // Placeholder for a state Peloton could not read; no task lives in it.
  UNKNOWN: [],
  INITIALIZED: ["PENDING", "KILLED"],
  // Waiting for admission in its pool's queue. Straight to LAUNCHING when the
  // scheduler keeps READY through PLACED in memory (only the launch is written).
  PENDING: ["READY", "LAUNCHING", "KILLED"],
  // Admitted. Back to PENDING when preempted before placement (peloton-semantics.md §4).
  READY: ["PLACING", "PENDING", "KILLED"],
  // READY again when no host was found in time; PENDING when preempted.
  PLACING: ["PLACED", "READY", "PENDING", "KILLED"],
  // READY again when the host's offer is gone before launch.
  PLACED: ["LAUNCHING", "READY", "PENDING", "KILLED"],
  // Taken by the job manager to launch; Mesos' first update may overtake the LAUNCHED write.
  // READY or PENDING when the launch was refused (nothing went out).
  LAUNCHING: ["LAUNCHED", "STARTING", "RUNNING", "READY", "PENDING", ...ENDED],
  // Sent to Mesos (TASK_STAGING). INITIALIZED: the launch timed out, a new run replaces it.
  LAUNCHED: ["STARTING", "RUNNING", "KILLING", "PREEMPTING", "INITIALIZED", ...ENDED],
  STARTING: ["RUNNING", "KILLING", "PREEMPTING", "INITIALIZED", ...ENDED],
  RUNNING: ["KILLING", "PREEMPTING", ...ENDED],
  // A kill was sent; whatever Mesos reports last ends the run.
  PREEMPTING: ["KILLING", ...ENDED],
  KILLING: [...ENDED],
  // Ended runs: a new run (restart, retry, preempted batch task) or deletion.
  SUCCEEDED: ["INITIALIZED", "DELETED"],
  FAILED: ["INITIALIZED", "DELETED"],
  LOST: ["INITIALIZED", "KILLED", "DELETED"],
  KILLED: ["INITIALIZED", "DELETED"],
  DELETED: [],
};

export function canTransition(from: TaskState, to: TaskState): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

export interface TransitionRefusal {
  readonly code: "ILLEGAL_TRANSITION";
  readonly from: TaskState;
  readonly to: TaskState;
  /** The states `from` may go to, for the message. */
  readonly allowed: readonly TaskState[];
}

export type TransitionResult =
  | { readonly ok: true; readonly from: TaskState; readonly to: TaskState }
  | { readonly ok: false; readonly refusal: TransitionRefusal };

/** `canTransition` with the refusal as a value: the caller changes nothing and says why. */
export function assertTransition(from: TaskState, to: TaskState): TransitionResult {
  if (canTransition(from, to)) return { ok: true, from, to };
  return {
    ok: false,
    refusal: { code: "ILLEGAL_TRANSITION", from, to, allowed: TASK_TRANSITIONS[from] },
  };
}

export function describeTransitionRefusal(r: TransitionRefusal): string {
  const allowed = r.allowed.length > 0 ? r.allowed.join(", ") : "nothing (it is final)";
  return `a task cannot go from ${r.from} to ${r.to}; from ${r.from} it may go to ${allowed}`;
}
