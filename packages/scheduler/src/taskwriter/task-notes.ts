/**
 * Why a task still waits (admission's queue reason, placement's "no host
 * fits"), written on its row without a state change or an event: only the
 * reason and message move, and only when they differ from what the row says.
 */
import type { TaskChange } from "@peloton/storage";

/** Why a PENDING task still waits, as a change of its reason only; null when the row already says so. */
export function noteChange(
  t: {
    taskId: string;
    jobId: string;
    instanceId: number;
    runId: number;
    reason: string | null;
    message: string | null;
  },
  reason: string,
  message: string,
): TaskChange | null {
  if (t.reason === reason && t.message === message) return null;
  return {
    taskId: t.taskId,
    jobId: t.jobId,
    instanceId: t.instanceId,
    expect: { state: "PENDING", runId: t.runId },
    state: "PENDING",
    reason,
    message,
    events: [],
  };
}
