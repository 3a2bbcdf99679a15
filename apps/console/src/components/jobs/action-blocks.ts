/**
 * What a user may do to a job or an instance now, and when not, why: the
 * buttons stay visible and say it (what may not be done is explained, not
 * hidden). The API decides in the end; this keeps the reader from asking.
 */
import { isTerminalJobState, isTerminalTaskState } from "@peloton/api/schemas";
import type { JobDetail, TaskDetail } from "@/lib/api-types";

/** Why an action does not apply to the job now, or undefined when it does. */
export function jobActionBlocks(job: Pick<JobDetail, "state" | "goalState" | "type">) {
  const deleting = job.goalState === "DELETED" ? "the job is being deleted" : undefined;
  const ended = isTerminalJobState(job.state);
  return {
    stop:
      deleting ??
      (job.goalState === "KILLED" && !ended
        ? "the job is being stopped already"
        : ended
          ? `the job has ended (${job.state})`
          : undefined),
    start:
      deleting ??
      (job.goalState === "KILLED" || job.state === "KILLED" || job.state === "FAILED"
        ? undefined
        : "the job is not stopped: start applies to a stopped or failed job"),
    restart: deleting,
    scale:
      deleting ??
      (job.type === "DAEMON"
        ? "a DAEMON job runs one instance on each eligible host; its count follows the hosts"
        : undefined),
    delete: deleting,
  };
}

/** Why an action does not apply to the instance now, or undefined when it does. */
export function taskActionBlocks(
  t: Pick<TaskDetail, "state" | "goalState"> & { job: Pick<TaskDetail["job"], "type"> },
) {
  const deleting = t.goalState === "DELETED" ? "the instance is being deleted" : undefined;
  const ended = isTerminalTaskState(t.state);
  const batchDone = t.job.type === "BATCH" && t.state === "SUCCEEDED";
  return {
    stop:
      deleting ??
      (ended
        ? `its run has ended (${t.state})`
        : t.goalState === "KILLED"
          ? "it is being stopped already"
          : undefined),
    start:
      deleting ??
      (batchDone
        ? "it succeeded; a batch instance that succeeded stays done (restart it to run it again)"
        : ended || t.goalState === "KILLED"
          ? undefined
          : "it is not stopped"),
    restart: deleting,
  };
}
