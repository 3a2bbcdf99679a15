/** Our tasks as Peloton's TaskInfo. */
import type { MessageShape } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { type JobConfig, taskConfigFor, terminationStatus } from "@peloton/engine";
import type { JobID } from "../generated/peloton/api/v0/peloton_pb.ts";
import {
  HealthState,
  type RuntimeInfo,
  TaskConfigSchema,
  type TaskInfo,
  TaskState,
  type TerminationStatus,
  TerminationStatus_Reason,
} from "../generated/peloton/api/v0/task/task_pb.ts";
import { pelotonMessage, timeText } from "./config.ts";

type Outputs = inferRouterOutputs<AppRouter>;
/** A task as tasks.list answers it (pods show all of it). */
export type TaskListed = Outputs["tasks"]["list"]["items"][number];
/** What a TaskInfo shows of a task: its runtime (tasks.runtimes; list and get answer more). */
export type TaskRuntime = Outputs["tasks"]["runtimes"]["items"][number];

export function taskStateOf(name: string): TaskState {
  return TaskState[name as keyof typeof TaskState] ?? TaskState.UNKNOWN;
}

/**
 * The runtime as a finished message: a literal of every field, which V8
 * builds in one allocation, where `create()` would walk the schema for each
 * of a list's 1,000 tasks (a third of TaskManager.List's encoding time).
 * The message types keep the literal complete: a field added to the proto
 * is a compile error here.
 */
function runtime(task: TaskRuntime): RuntimeInfo {
  return {
    $typeName: "peloton.api.v0.task.RuntimeInfo",
    state: taskStateOf(task.state),
    goalState: taskStateOf(task.goalState),
    mesosTaskId: task.clusterTaskId
      ? { $typeName: "mesos.v1.TaskID", value: task.clusterTaskId }
      : undefined,
    startTime: timeText(task.startedAt),
    completionTime: timeText(task.finishedAt),
    host: task.hostname ?? "",
    ports: task.ports,
    message: task.message ?? "",
    reason: task.reason ?? "",
    failureCount: task.failureCount,
    volumeID: undefined,
    configVersion: 0n,
    desiredConfigVersion: 0n,
    agentID: undefined,
    revision: {
      $typeName: "peloton.api.v0.peloton.ChangeLog",
      version: 0n,
      createdAt: BigInt(task.createdAt.getTime()),
      updatedAt: BigInt(task.updatedAt.getTime()),
      updatedBy: "",
    },
    prevMesosTaskId: undefined,
    resourceUsage: {},
    healthy: HealthState[task.health as keyof typeof HealthState] ?? HealthState.INVALID,
    desiredMesosTaskId: undefined,
    terminationStatus: terminationStatusOf(task),
    desiredHost: "",
  };
}

/**
 * How the run ended (none while it runs, or when it simply finished), as
 * the engine words it for the CLI too. Exit codes and signals are not
 * stored: the cluster's message (`runtime.message`) carries them.
 */
function terminationStatusOf(task: TaskRuntime): TerminationStatus | undefined {
  const status = terminationStatus(task);
  if (status === null) return undefined;
  return {
    $typeName: "peloton.api.v0.task.TerminationStatus",
    reason: TerminationStatus_Reason[`TERMINATION_STATUS_REASON_${status}`],
    exitCode: 0,
    signal: "",
  };
}

/**
 * Each task config converted once: every instance without overrides shares
 * its job's default config object (taskConfigFor returns it as is), so a
 * list of 1,000 instances converts one config, not 1,000. Messages are
 * only read after this (encoded), so sharing one is safe.
 */
const converted = new WeakMap<object, MessageShape<typeof TaskConfigSchema>>();

function taskConfigMessage(config: JobConfig, instanceId: number) {
  const ours = taskConfigFor(config, instanceId);
  let message = converted.get(ours);
  if (!message) {
    message = pelotonMessage(TaskConfigSchema, ours);
    converted.set(ours, message);
  }
  return message;
}

/** One instance with its task config (the job's default with the instance's overrides). */
export function taskInfo(
  task: TaskRuntime,
  config: unknown,
  job = jobIdMessage(task.jobId),
): TaskInfo {
  return {
    $typeName: "peloton.api.v0.task.TaskInfo",
    instanceId: task.instanceId,
    jobId: job,
    config: taskConfigMessage(config as JobConfig, task.instanceId),
    runtime: runtime(task),
  };
}

/** A job's id as a message, which a list of its tasks shares (messages are only read once built). */
export function jobIdMessage(value: string): JobID {
  return { $typeName: "peloton.api.v0.peloton.JobID", value };
}
