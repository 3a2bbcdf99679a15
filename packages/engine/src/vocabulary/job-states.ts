/**
 * Job states and types with Peloton's v0 protobuf numbers (api/v0/job proto,
 * peloton-semantics.md §3), and a rolling update's states.
 */
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
export const JOB_STATES = Object.keys(JOB_STATE_NUMBERS) as [JobState, ...JobState[]];

/** Peloton's `IsPelotonJobStateTerminal`. */
export const TERMINAL_JOB_STATES = [
  "SUCCEEDED",
  "FAILED",
  "KILLED",
  "DELETED",
] as const satisfies readonly JobState[];

export function isTerminalJobState(state: JobState): boolean {
  return (TERMINAL_JOB_STATES as readonly JobState[]).includes(state);
}

export const JOB_TYPE_NUMBERS = { BATCH: 0, SERVICE: 1, DAEMON: 2, STATEFUL: 3 } as const;
export type JobType = keyof typeof JOB_TYPE_NUMBERS;
export const JOB_TYPES = Object.keys(JOB_TYPE_NUMBERS) as [JobType, ...JobType[]];

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
