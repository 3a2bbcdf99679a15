/** Checkpoint records of the sim's live objects. */
import type { SimAgent } from "../agent.ts";
import type { SimExecutor, SimTask } from "../model.ts";
import type { AgentRecord, TaskRecord } from "./records.ts";

export function agentRecord(agent: SimAgent): AgentRecord {
  return {
    id: agent.id,
    hostname: agent.hostname,
    spec: agent.spec ?? { hostname: agent.hostname, resources: { cpus: 0, mem: 0 } },
    total: agent.total.toResources(),
    dynamic: agent.dynamic,
    port: agent.url.address.port,
  };
}

export function taskRecord(task: SimTask, group: SimExecutor | undefined): TaskRecord {
  return {
    frameworkId: task.frameworkId,
    taskId: task.taskId,
    agentId: task.agentId,
    executorId: task.executorId,
    containerId: task.containerId,
    info: task.info,
    resources: task.resources.toResources(),
    state: task.state,
    sandbox: task.sandbox,
    group:
      group !== undefined
        ? {
            executorId: group.executorId,
            containerId: group.containerId,
            resources: group.resources.toResources(),
          }
        : undefined,
    killRequested: task.killRequested,
    run: task.runRecord,
  };
}
