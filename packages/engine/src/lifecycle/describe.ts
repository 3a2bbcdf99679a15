import { formatAmount } from "../resources/format.ts";
import type { TaskDecision } from "./task-decision.ts";

type NewRun = Extract<TaskDecision, { action: "START_NEW_RUN" }>;
type Nothing = Extract<TaskDecision, { action: "NONE" }>;

/** One sentence for the console's task page: what the job manager does next, and why. */
export function describeTaskDecision(d: TaskDecision): string {
  switch (d.action) {
    case "ENQUEUE":
      return "waiting to be queued for admission in its pool";
    case "KILL":
      return d.why === "RESTART_REQUESTED"
        ? "stopping the current run so a new one can start (restart requested)"
        : "stopping: the job was asked to stop";
    case "START_NEW_RUN":
      return describeNewRun(d);
    case "MARK_TERMINAL":
      if (d.state === "DELETED") return "deleting: the run has ended";
      return d.why === "LOST_WHILE_STOPPING"
        ? "marked KILLED: it was lost while being stopped"
        : "marked KILLED: it had not been launched, so nothing runs to kill";
    case "NONE":
      return describeNothing(d);
  }
}

function describeNewRun(d: NewRun): string {
  const after = d.delayMs > 0 ? ` in ${formatAmount(d.delayMs / 1000)} s` : "";
  switch (d.why) {
    case "PREEMPTED":
      return `starting run ${d.run}${after}: the last run was preempted (not counted as a failure)`;
    case "RESTART_REQUESTED":
      return `starting run ${d.run}: restart requested`;
    case "SYSTEM_ENDED":
      return `replacing it as run ${d.run}: the cluster lost the last run or its host restarted (not counted as a failure)`;
    case "SERVICE_ENDED":
      return `restarting as run ${d.run}${after}: a service keeps running (${d.failureCount} failures so far)`;
    case "RESTART_AFTER_FAILURE":
      return `retrying as run ${d.run}: ${d.failureCount} failures so far, within its restart policy`;
  }
}

function describeNothing(d: Nothing): string {
  switch (d.why) {
    case "RESTART_LIMIT_REACHED":
      return `not retried: ${d.failureCount} failures reached its restart policy's limit of ${d.limit}`;
    case "KILLED_ON_PREEMPT":
      return "not rerun: preempted, and its preemption policy says killOnPreempt";
    case "STOPPING":
      return "waiting for the host to confirm the kill";
    case "STOPPED":
      return "stopped";
    case "IN_PROGRESS":
      return "on its way to its goal";
    case "AT_GOAL":
      return "at its goal";
    case "NO_SUCH_STATE":
      return "its state is unknown; waiting for reconciliation";
  }
}
