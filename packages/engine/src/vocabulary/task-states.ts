/**
 * Task states with Peloton's v0 protobuf numbers (api/v0/task proto,
 * peloton-semantics.md §3), and the sets of them the system asks about. The
 * storage schema keeps the same names. Note LAUNCHED = 15: Peloton added it
 * after STARTING had 7.
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
export const TASK_STATES = Object.keys(TASK_STATE_NUMBERS) as [TaskState, ...TaskState[]];

/** What the job manager drives a task (and a job) towards. */
export const GOAL_STATES = ["RUNNING", "SUCCEEDED", "KILLED", "DELETED"] as const;
export type GoalState = (typeof GOAL_STATES)[number];

/**
 * The run has ended (Peloton's `IsPelotonStateTerminal`, without DELETED: a
 * deleted task has no run). A new run of the instance starts from here.
 */
export const TERMINAL_TASK_STATES = [
  "SUCCEEDED",
  "FAILED",
  "LOST",
  "KILLED",
] as const satisfies readonly TaskState[];

/** The run never changes again, and the cluster holds nothing of it: ended, or the task deleted. */
export const FINISHED_TASK_STATES = [
  ...TERMINAL_TASK_STATES,
  "DELETED",
] as const satisfies readonly TaskState[];

/** A kill was decided for the run (a user's stop, or a preemption) and the cluster has not confirmed its end. */
export const STOPPING_TASK_STATES = [
  "KILLING",
  "PREEMPTING",
] as const satisfies readonly TaskState[];

/** Between placement and running: handed to the cluster, not yet confirmed running. */
export const STARTING_TASK_STATES = [
  "LAUNCHING",
  "LAUNCHED",
  "STARTING",
] as const satisfies readonly TaskState[];

/** Not yet admitted, or admitted and still looking for a host. */
export const WAITING_TASK_STATES = [
  "INITIALIZED",
  "PENDING",
  "READY",
  "PLACING",
  "PLACED",
] as const satisfies readonly TaskState[];

/** Admitted and not placed yet: what a preemption can send back to PENDING without a kill. */
export const UNPLACED_TASK_STATES = [
  "READY",
  "PLACING",
  "PLACED",
] as const satisfies readonly TaskState[];

/**
 * States in which the task's resources count as allocated in its pool:
 * admitted through running, until the kill lands.
 */
export const ALLOCATING_TASK_STATES = [
  ...UNPLACED_TASK_STATES,
  ...STARTING_TASK_STATES,
  "RUNNING",
  ...STOPPING_TASK_STATES,
] as const satisfies readonly TaskState[];

const has =
  <S extends TaskState>(set: readonly S[]) =>
  (state: TaskState): boolean =>
    (set as readonly TaskState[]).includes(state);

export const isTerminalTaskState = has(TERMINAL_TASK_STATES);
export const isFinishedTaskState = has(FINISHED_TASK_STATES);
export const isStoppingTaskState = has(STOPPING_TASK_STATES);
export const holdsAllocation = has(ALLOCATING_TASK_STATES);
