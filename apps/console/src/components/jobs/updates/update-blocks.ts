/**
 * What may be done to an update now, and when not, why (docs/updates.md
 * "Rules": pause, resume, abort and rollback on an active update only).
 * The buttons stay visible and say it; the API decides in the end.
 */
import type { UpdateState, UpdateView } from "./update-types";

const ACTIVE: ReadonlySet<UpdateState> = new Set([
  "INITIALIZED",
  "ROLLING_FORWARD",
  "ROLLING_BACKWARD",
  "PAUSED",
]);

export const isActiveUpdate = (u: Pick<UpdateView, "state">): boolean => ACTIVE.has(u.state);

/** Rolling back, or paused while rolling back: the way it is going is back. */
export const isGoingBack = (u: Pick<UpdateView, "state" | "previousState">): boolean =>
  u.state === "ROLLING_BACKWARD" ||
  (u.state === "PAUSED" && u.previousState === "ROLLING_BACKWARD");

export type UpdateVerb = "pause" | "resume" | "abort" | "rollback";

/** Why each verb does not apply to the update now, or undefined when it does. */
export function updateActionBlocks(
  u: Pick<UpdateView, "state" | "previousState" | "fromVersion" | "toVersion">,
): Record<UpdateVerb, string | undefined> {
  if (!isActiveUpdate(u)) {
    const finished = `the update has finished (${u.state})`;
    return { pause: finished, resume: finished, abort: finished, rollback: finished };
  }
  const paused = u.state === "PAUSED";
  return {
    pause: paused ? "the update is paused already" : undefined,
    resume: paused ? undefined : "the update is not paused",
    abort: undefined,
    rollback: isGoingBack(u)
      ? "the update is rolling back already"
      : u.fromVersion === u.toVersion
        ? `it keeps configuration version ${u.toVersion}: there is no earlier one to go back to`
        : undefined,
  };
}

/**
 * Why a job cannot get a new update or a rolling restart now, or undefined:
 * only SERVICE, STATEFUL and DAEMON jobs are updated (Peloton refuses a
 * BATCH job's update), and not while the job is being deleted.
 */
export function jobUpdateBlocks(job: { type: string; goalState: string }): {
  update: string | undefined;
  rollingRestart: string | undefined;
} {
  const why =
    job.goalState === "DELETED"
      ? "the job is being deleted"
      : job.type === "BATCH"
        ? "a BATCH job is not updated in batches: only SERVICE, STATEFUL and DAEMON jobs are (as in Peloton)"
        : undefined;
  return { update: why, rollingRestart: why };
}
