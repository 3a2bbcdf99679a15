/** Enumerations of mesos.proto used by the client and mesos-sim (JSON spelling). */
import { MESOS_TASK_STATES, type MesosTaskState } from "@peloton/engine";

/** mesos.proto's task states: the engine's list, which maps each to a task state. */
export const TASK_STATES = MESOS_TASK_STATES;
export type TaskState = MesosTaskState;

const TERMINAL: ReadonlySet<TaskState> = new Set<TaskState>([
  "TASK_FINISHED",
  "TASK_FAILED",
  "TASK_KILLED",
  "TASK_ERROR",
  "TASK_LOST",
  "TASK_DROPPED",
  "TASK_GONE",
  "TASK_GONE_BY_OPERATOR",
]);

/** Terminal per mesos.proto: the task will never run again and its resources are free. */
export function isTerminalState(state: TaskState): boolean {
  return TERMINAL.has(state);
}

export type TaskStatusSource = "SOURCE_MASTER" | "SOURCE_AGENT" | "SOURCE_EXECUTOR";

/** The reasons mesos-sim emits and the scheduler is expected to act on (a subset). */
export type TaskStatusReason =
  | "REASON_COMMAND_EXECUTOR_FAILED"
  | "REASON_CONTAINER_LAUNCH_FAILED"
  | "REASON_CONTAINER_LIMITATION_MEMORY"
  | "REASON_CONTAINER_PREEMPTED"
  | "REASON_EXECUTOR_TERMINATED"
  | "REASON_EXECUTOR_UNREGISTERED"
  | "REASON_FRAMEWORK_REMOVED"
  | "REASON_GC_ERROR"
  | "REASON_INVALID_FRAMEWORKID"
  | "REASON_INVALID_OFFERS"
  | "REASON_MASTER_DISCONNECTED"
  | "REASON_RECONCILIATION"
  | "REASON_RESOURCES_UNKNOWN"
  | "REASON_AGENT_DISCONNECTED"
  | "REASON_AGENT_REMOVED"
  | "REASON_AGENT_REMOVED_BY_OPERATOR"
  | "REASON_AGENT_RESTARTED"
  | "REASON_AGENT_UNKNOWN"
  | "REASON_TASK_HEALTH_CHECK_STATUS_UPDATED"
  | "REASON_TASK_KILLED_DURING_LAUNCH"
  | "REASON_TASK_INVALID"
  | "REASON_TASK_UNAUTHORIZED"
  | "REASON_TASK_UNKNOWN"
  | "REASON_MAX_COMPLETION_TIME_REACHED";

export type OfferOperationType =
  | "LAUNCH"
  | "LAUNCH_GROUP"
  | "RESERVE"
  | "UNRESERVE"
  | "CREATE"
  | "DESTROY";

export type OperationState =
  | "OPERATION_PENDING"
  | "OPERATION_FINISHED"
  | "OPERATION_FAILED"
  | "OPERATION_ERROR"
  | "OPERATION_DROPPED"
  | "OPERATION_UNREACHABLE"
  | "OPERATION_GONE_BY_OPERATOR"
  | "OPERATION_RECOVERING"
  | "OPERATION_UNKNOWN";
