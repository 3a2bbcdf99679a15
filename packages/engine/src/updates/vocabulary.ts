/**
 * Updates' words (Peloton's `update.State` and workflow types): which states
 * are active, what each kind does, the options as Peloton's `UpdateConfig`.
 */
import type { UpdateState } from "../vocabulary/job-states.ts";

/** Peloton's workflow types: a new config, or a rolling restart, start or stop of the current one. */
export const UPDATE_KINDS = ["UPDATE", "RESTART", "START", "STOP"] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];

/** An update in one of these is not finished: one per job at a time. */
export const ACTIVE_UPDATE_STATES: readonly UpdateState[] = [
  "INITIALIZED",
  "ROLLING_FORWARD",
  "ROLLING_BACKWARD",
  "PAUSED",
];

/** The states the workflow loop drives (a paused update waits for a resume). */
export const RUNNING_UPDATE_STATES: readonly UpdateState[] = [
  "INITIALIZED",
  "ROLLING_FORWARD",
  "ROLLING_BACKWARD",
];

export function isActiveUpdateState(state: UpdateState): boolean {
  return ACTIVE_UPDATE_STATES.includes(state);
}

/** Peloton's UpdateConfig (update.proto), field for field. */
export interface UpdateOptions {
  batchSize: number;
  /** Of the job's instances; when above 0 it wins over batchSize (Peloton). */
  batchPercentage: number;
  stopBeforeUpdate: boolean;
  startPaused: boolean;
  rollbackOnFailure: boolean;
  /** Runs on the new version an instance may fail before it counts as failed; 0: unlimited. */
  maxInstanceAttempts: number;
  /** Failed instances that fail the update; 0: no limit (Peloton). */
  maxFailureInstances: number;
  inPlace: boolean;
  startTasks: boolean;
}

/**
 * How many instances may be in flight at once: batchPercentage of the
 * instances (at least one) when set, else batchSize; stopBeforeUpdate takes
 * them all at once (every instance is stopped before any new run starts).
 */
export function effectiveBatchSize(options: UpdateOptions, instances: number): number {
  if (options.stopBeforeUpdate) return Math.max(1, instances);
  if (options.batchPercentage > 0)
    return Math.max(1, Math.ceil((options.batchPercentage * instances) / 100));
  return Math.max(1, options.batchSize);
}
