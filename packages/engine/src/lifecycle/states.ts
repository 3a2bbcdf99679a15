/**
 * Task and job states with Peloton's v0 protobuf numbers (api/v0/task and
 * api/v0/job protos, peloton-semantics.md §3). The storage layer keeps the
 * same names. Note LAUNCHED = 15: Peloton added it after STARTING had 7.
 */
export const TASK_STATE_NUMBERS = {
  UNKNOWN: 0,
  INITIALIZED: 1,
  PENDING: 2,
  READY: 3,
  PLACING: 4,
  PLACED: 5,
  LAUNCHING: 6,
  LAUNCHED: 15,
  STARTING: 7,
  RUNNING: 8,
  SUCCEEDED: 9,
  FAILED: 10,
  LOST: 11,
  PREEMPTING: 12,
  KILLING: 13,
  KILLED: 14,
  DELETED: 16,
} as const;
export type TaskState = keyof typeof TASK_STATE_NUMBERS;
/** In lifecycle order (LAUNCHED before STARTING), not number order. */
export const TASK_STATES = Object.keys(TASK_STATE_NUMBERS) as TaskState[];

export const JOB_STATE_NUMBERS = {
  UNKNOWN: 0,
  INITIALIZED: 1,
  PENDING: 2,
  RUNNING: 3,
  SUCCEEDED: 4,
  FAILED: 5,
  KILLED: 6,
  KILLING: 7,
  UNINITIALIZED: 8,
  DELETED: 9,
} as const;
export type JobState = keyof typeof JOB_STATE_NUMBERS;
export const JOB_STATES = Object.keys(JOB_STATE_NUMBERS) as JobState[];

/** What the job manager drives a task (and a job) towards. */
export const GOAL_STATES = ["RUNNING", "SUCCEEDED", "KILLED", "DELETED"] as const;
export type GoalState = (typeof GOAL_STATES)[number];

/** A rolling update's states (peloton-semantics.md §3). */
export const UPDATE_STATES = [
  "INITIALIZED",
  "ROLLING_FORWARD",
  "PAUSED",
  "SUCCEEDED",
  "ABORTED",
  "FAILED",
  "ROLLING_BACKWARD",
  "ROLLED_BACK",
] as const;
export type UpdateState = (typeof UPDATE_STATES)[number];

/** The run has ended (Peloton's `IsPelotonStateTerminal`, without DELETED: a deleted task has no run). */
export function isTerminalTaskState(state: TaskState): boolean {
  return state === "SUCCEEDED" || state === "FAILED" || state === "LOST" || state === "KILLED";
}

/** A kill was decided for the run (a user's stop, or a preemption) and the cluster has not confirmed its end. */
export function isStoppingTaskState(state: TaskState): boolean {
  return state === "KILLING" || state === "PREEMPTING";
}

/** States in which the task's resources count as allocated in its pool (admitted, not yet ended). */
export function holdsAllocation(state: TaskState): boolean {
  return !(
    state === "UNKNOWN" ||
    state === "INITIALIZED" ||
    state === "PENDING" ||
    state === "DELETED" ||
    isTerminalTaskState(state)
  );
}

/** Peloton's `IsPelotonJobStateTerminal`. */
export function isTerminalJobState(state: JobState): boolean {
  return state === "SUCCEEDED" || state === "FAILED" || state === "KILLED" || state === "DELETED";
}
