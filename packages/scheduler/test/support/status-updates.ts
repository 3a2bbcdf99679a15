/** What the status-update tests feed the job manager's handler, and the task row their fakes hold. */
import type { StorageGateway, TaskRunRow } from "@peloton/storage";
import { pino } from "pino";
import type { TaskStatusUpdate } from "../../src/hostmgr/host-adapter.ts";
import { StatusUpdates, type StatusUpdatesOptions } from "../../src/jobmgr/status-updates.ts";
import type { JobConfigs } from "../../src/taskwriter/job-configs.ts";
import type { TaskWriter } from "../../src/taskwriter/task-writer.ts";

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

/**
 * The job manager's status handler over `store`, a fake that reads runs
 * (`byClusterIds`) and writes changes as the task writer would; no job
 * configs, nothing killed, quiet.
 */
export function statusUpdatesOver(
  store: object,
  opts: Partial<StatusUpdatesOptions> = {},
): StatusUpdates {
  return new StatusUpdates({
    gateway: { taskRuns: store } as unknown as StorageGateway,
    writer: store as unknown as TaskWriter,
    configs: { get: async () => new Map() } as unknown as JobConfigs,
    log: pino({ level: "silent" }),
    kill: () => undefined,
    summaryMs: 60_000,
    ...opts,
  });
}
