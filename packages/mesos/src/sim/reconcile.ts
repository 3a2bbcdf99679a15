/**
 * Reconciliation answers (Mesos docs/reconciliation.md and the master's
 * `_reconcileTasks`), as a pure function of what the master knows. Every
 * answer is a master-generated update: no uuid, reason REASON_RECONCILIATION.
 */
import type { TaskState } from "../proto/enums.ts";
import type { TaskStatus } from "../proto/messages.ts";
import { masterStatus } from "./status.ts";

export type AgentStanding = "registered" | "unreachable" | "gone" | "unknown";

export interface KnownTask {
  taskId: string;
  agentId: string;
  executorId?: string;
  state: TaskState;
  /** The task's agent was lost; the task was reported UNREACHABLE/LOST. */
  unreachable: boolean;
}

export interface ReconcileQuery {
  taskId: string;
  agentId?: string;
}

/** The answer to one explicit query. `partitionAware` picks the partition-aware states. */
export function reconcileAnswer(
  query: ReconcileQuery,
  task: KnownTask | undefined,
  agent: AgentStanding,
  partitionAware: boolean,
): TaskStatus {
  const pa = (aware: TaskState): TaskState => (partitionAware ? aware : "TASK_LOST");
  if (task !== undefined) return knownTaskAnswer(task, partitionAware);
  const base = { taskId: query.taskId, reason: "REASON_RECONCILIATION" as const };
  const withAgent = query.agentId !== undefined ? { agentId: query.agentId } : {};
  switch (query.agentId !== undefined ? agent : "unknown") {
    case "registered":
      return masterStatus({
        ...base,
        ...withAgent,
        state: pa("TASK_GONE"),
        message: "Reconciliation: Task is unknown to the agent",
      });
    case "unreachable":
      return masterStatus({
        ...base,
        ...withAgent,
        state: pa("TASK_UNREACHABLE"),
        message: "Reconciliation: Task is unreachable",
      });
    case "gone":
      return masterStatus({
        ...base,
        ...withAgent,
        state: pa("TASK_GONE_BY_OPERATOR"),
        message: "Reconciliation: Task is gone",
      });
    case "unknown":
      return masterStatus({
        ...base,
        ...withAgent,
        state: pa("TASK_UNKNOWN"),
        message: "Reconciliation: Task is unknown",
      });
  }
}

/** Latest state of a task the master knows (also the implicit-reconciliation answer). */
export function knownTaskAnswer(task: KnownTask, partitionAware: boolean): TaskStatus {
  if (task.unreachable) {
    return masterStatus({
      taskId: task.taskId,
      agentId: task.agentId,
      state: partitionAware ? "TASK_UNREACHABLE" : "TASK_LOST",
      reason: "REASON_RECONCILIATION",
      message: "Reconciliation: Task is unreachable",
    });
  }
  return masterStatus({
    taskId: task.taskId,
    agentId: task.agentId,
    ...(task.executorId !== undefined ? { executorId: task.executorId } : {}),
    state: task.state,
    reason: "REASON_RECONCILIATION",
    message: "Reconciliation: Latest task state",
  });
}
