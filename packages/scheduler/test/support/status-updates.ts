/** What the status-update tests feed the job manager's handler, and the task row their fakes hold. */
import type { TaskRunRow } from "@peloton/storage";
import type { TaskStatusUpdate } from "../../src/hostmgr/host-adapter.ts";

/** An agent's update of run `clusterTaskId` on a1.test (a master's reconciliation answer when asked). */
export function statusUpdate(
  clusterTaskId: string,
  clusterState: string,
  state: TaskStatusUpdate["state"],
  reconciliation = false,
): TaskStatusUpdate {
  return {
    taskId: clusterTaskId,
    state,
    clusterState,
    reason: null,
    message: null,
    hostId: "agent-1",
    hostname: "a1.test",
    at: new Date(),
    reconciliation,
    healthy: null,
  };
}

/** Instance 0 of job "job", run 1 as `clusterTaskId` on a1.test, in `state`. */
export function taskRunRow(clusterTaskId: string, state: TaskRunRow["state"]): TaskRunRow {
  return {
    taskId: "task-1",
    jobId: "job",
    instanceId: 0,
    runId: 1,
    desiredRun: 1,
    state,
    goalState: "SUCCEEDED",
    failureCount: 0,
    reason: null,
    clusterTaskId,
    hostname: "a1.test",
    agentId: "agent-1",
    notBefore: null,
    updatedAt: new Date(),
    restartRequestedBy: null,
    desiredConfigVersion: 1,
    restartReason: null,
  };
}
