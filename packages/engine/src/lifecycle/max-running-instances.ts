/**
 * A job's `sla.maximumRunningInstances`: no more than N of its instances are
 * scheduled at once. Peloton's job manager enforces it before admission
 * (pkg/jobmgr/goalstate `JobEvaluateMaxRunningInstancesSLA`): it counts the
 * instances in any state past INITIALIZED that has not ended, and sends to
 * the resource manager only as many INITIALIZED tasks as that leaves room
 * for; the rest stay INITIALIZED until an instance ends. Ours does the same
 * and says why they wait.
 */
import { type TaskState, TERMINAL_TASK_STATES } from "../vocabulary/task-states.ts";

/** The reason stored on an instance held back by the limit. */
export const MAX_RUNNING_INSTANCES_REASON = "MAXIMUM_RUNNING_INSTANCES";

/** Scheduled: queued for admission, admitted, placed, on a host, or being stopped — not yet ended. */
export const UNSCHEDULED_TASK_STATES: readonly TaskState[] = [
  "INITIALIZED",
  ...TERMINAL_TASK_STATES,
  "DELETED",
  "UNKNOWN",
];

export function isScheduled(state: TaskState): boolean {
  return !UNSCHEDULED_TASK_STATES.includes(state);
}

/**
 * How many more instances may be queued now: the limit less those already
 * scheduled, never below 0; unlimited (Infinity) when the job sets 0.
 */
export function instancesToStart(maximumRunningInstances: number, scheduled: number): number {
  if (maximumRunningInstances <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, maximumRunningInstances - scheduled);
}

/** The "why waiting" message of an instance held back. */
export function describeMaxRunningHold(maximumRunningInstances: number): string {
  return `waiting: the job runs its maximum of ${maximumRunningInstances} instances at once (sla.maximumRunningInstances)`;
}
