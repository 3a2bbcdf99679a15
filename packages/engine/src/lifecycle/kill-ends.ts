/**
 * How a run we killed on purpose is recorded when its end comes in. The
 * cluster reports a kill as any other (TASK_KILLED, REASON_...), which would
 * read as a stop; a run killed for its deadline or for a restart an operator
 * asked for keeps that reason on its end, so its history says why it ended
 * (Peloton's TerminationStatus reasons DEADLINE_TIMEOUT_EXCEEDED,
 * KILLED_FOR_RESTART and KILLED_FOR_UPDATE), and the restart's end names
 * who asked. Neither counts as a failure (run-end.ts: a run ended while
 * KILLING was asked for).
 */

import {
  describeEvictedRun,
  describeEvictionKill,
  HOST_MAINTENANCE_REASON,
} from "../maintenance/evictions.ts";
import type { TaskState } from "../vocabulary/task-states.ts";
import { DEADLINE_EXCEEDED_REASON } from "./max-running-time.ts";

/** The reason of a run killed so that a new one can start (the goal-state decision's code). */
export const RESTART_REQUESTED_REASON = "RESTART_REQUESTED";

/**
 * The reason of a run killed so that one with an update's new config can
 * start (Peloton's KILLED_FOR_UPDATE): a restart the update asked for, kept
 * apart from an operator's restart.
 */
export const JOB_UPDATE_REASON = "JOB_UPDATE";

export interface KilledRunEnd {
  readonly reason: string;
  /** Null: the cluster's own message stands. */
  readonly message: string | null;
}

/** The message of a restart's kill, and of the task while it is killed. */
export function describeRestartKill(by: string | null): string {
  return `stopping the current run so a new one can start (restart requested${by ? ` by ${by}` : ""})`;
}

/** The message a run replaced by a restart ends with. */
export function describeRestartedRun(by: string | null): string {
  return `restarted${by ? ` by ${by}` : ""}: replaced by a new run (not a failure)`;
}

/** The message of an update's kill, and of the task while it is killed. */
export function describeUpdateKill(by: string | null): string {
  return `stopping the current run so one with the new config can start (${by ?? "an update"})`;
}

/** The message a run replaced by an update ends with. */
export function describeUpdatedRun(by: string | null): string {
  return `replaced by a run with the new config (${by ?? "an update"}; not a failure)`;
}

/**
 * The restarts that keep why on the run (the row's restart reason), each
 * with the message of its kill and of the run's end, naming who asked: an
 * operator's restart, an update's new config, an eviction from a host going
 * into maintenance.
 */
const RESTART_WORDS: Readonly<
  Record<string, { kill: (by: string | null) => string; ended: (by: string | null) => string }>
> = {
  [RESTART_REQUESTED_REASON]: { kill: describeRestartKill, ended: describeRestartedRun },
  [JOB_UPDATE_REASON]: { kill: describeUpdateKill, ended: describeUpdatedRun },
  [HOST_MAINTENANCE_REASON]: { kill: describeEvictionKill, ended: describeEvictedRun },
};

function restartWords(reason: string | null | undefined) {
  return reason != null && Object.hasOwn(RESTART_WORDS, reason) ? RESTART_WORDS[reason] : undefined;
}

/**
 * The reason and message of a restart's kill, from the row's restart reason
 * (null, or one not listed: an operator's restart).
 */
export function restartKillOf(
  restartReason: string | null,
  by: string | null,
): { reason: string; message: string } {
  const reason = restartWords(restartReason) ? restartReason! : RESTART_REQUESTED_REASON;
  return { reason, message: RESTART_WORDS[reason]!.kill(by) };
}

/**
 * The reason and message a run's end is stored with: the cluster's, unless
 * the run was being killed for its deadline or for a restart.
 */
export function endOfKilledRun(
  current: TaskState,
  currentReason: string | null | undefined,
  reported: string,
  restartBy: string | null,
): KilledRunEnd {
  if (current !== "KILLING") return { reason: reported, message: null };
  if (currentReason === DEADLINE_EXCEEDED_REASON)
    return { reason: DEADLINE_EXCEEDED_REASON, message: null };
  const restart = restartWords(currentReason);
  if (restart) return { reason: currentReason!, message: restart.ended(restartBy) };
  return { reason: reported, message: null };
}
