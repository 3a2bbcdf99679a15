/**
 * The runs the cluster may still have (a cluster task id and a state that is
 * not final): reconciled explicitly after every (re)subscription, so the
 * database learns what happened to them while nobody listened.
 */
import type { StorageGateway } from "@peloton/storage";
import type { UnfinishedTasks } from "./host-adapter.ts";

export function unfinishedTasksOf(gateway: StorageGateway): UnfinishedTasks {
  return async () =>
    (await gateway.taskStatus.unfinished()).map((t) => ({
      taskId: t.clusterTaskId,
      ...(t.agentId !== null ? { hostId: t.agentId } : {}),
    }));
}
