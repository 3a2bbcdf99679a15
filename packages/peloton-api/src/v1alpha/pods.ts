/**
 * Peloton's v1alpha pods over our tasks: a pod is an instance of a job,
 * named `<job id>-<instance>`; each run of it is a pod id
 * `<job id>-<instance>-<run>` (Peloton's own spelling of both). Our task
 * states are Peloton's; its pod states are the same names with a
 * `POD_STATE_` prefix in the proto. Shared by WatchService, PodService and
 * the stateless JobService.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { terminationStatus } from "@peloton/engine";
import { invalidArgument } from "../calls/status.ts";
import {
  HealthState,
  PodState,
  type PodStatusSchema,
  type PodSummarySchema,
  TerminationStatus_Reason,
  type TerminationStatusSchema,
} from "../generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { timeText } from "../v0/config.ts";
import type { TaskListed } from "../v0/task-info.ts";

/** A job id, as the router stores them (a UUID), then the instance and maybe the run. */
const POD_NAME = /^([0-9a-fA-F-]{36})-(\d+)$/;
const POD_ID = /^([0-9a-fA-F-]{36})-(\d+)-(\d+)$/;

export function podState(name: string): PodState {
  return PodState[name as keyof typeof PodState] ?? PodState.INVALID;
}

/** Peloton's pod name: "<job id>-<instance>". */
export function podName(jobId: string, instance: number): string {
  return `${jobId}-${instance}`;
}

/** Peloton's pod id, one run of a pod: "<job id>-<instance>-<run>". */
export function podId(jobId: string, instance: number, run: number): string {
  return `${podName(jobId, instance)}-${run}`;
}

/** A pod name's job and instance, or the request refused naming `field`. */
export function parsePodName(
  value: string | undefined,
  field: string,
): { jobId: string; instance: number } {
  const m = POD_NAME.exec(value ?? "");
  if (!m?.[1] || !m[2])
    throw invalidArgument(field, `a pod name is "<job id>-<instance>" (got "${value ?? ""}")`);
  return { jobId: m[1].toLowerCase(), instance: Number(m[2]) };
}

/** A pod id's job, instance and run, or the request refused naming `field`. */
export function parsePodId(
  value: string,
  field: string,
): { jobId: string; instance: number; run: number } {
  const m = POD_ID.exec(value);
  if (!m?.[1] || !m[2] || !m[3])
    throw invalidArgument(field, `a pod id is "<job id>-<instance>-<run>" (got "${value}")`);
  return { jobId: m[1].toLowerCase(), instance: Number(m[2]), run: Number(m[3]) };
}

/** How the run ended, when it ended for a reason (the engine's rule, as the CLI prints it). */
function terminationOf(task: TaskListed): {
  terminationStatus?: MessageInitShape<typeof TerminationStatusSchema>;
} {
  const status = terminationStatus(task);
  return status === null
    ? {}
    : {
        terminationStatus: {
          reason: TerminationStatus_Reason[`TERMINATION_STATUS_REASON_${status}`],
        },
      };
}

/** The current run of an instance as Peloton's PodStatus. */
export function podStatus(task: TaskListed): MessageInitShape<typeof PodStatusSchema> {
  // Our HEALTH_UNKNOWN is the v1alpha proto's HEALTH_STATE_UNKNOWN; the other names match.
  const health =
    HealthState[task.health.replace(/^HEALTH_/, "") as keyof typeof HealthState] ??
    HealthState.INVALID;
  return {
    state: podState(task.state),
    desiredState: podState(task.goalState),
    podId: { value: podId(task.jobId, task.instanceId, task.runId) },
    ...(task.runId > 1
      ? { prevPodId: { value: podId(task.jobId, task.instanceId, task.runId - 1) } }
      : {}),
    desiredPodId: { value: podId(task.jobId, task.instanceId, task.desiredRun) },
    startTime: timeText(task.startedAt),
    completionTime: timeText(task.finishedAt),
    host: task.hostname ?? "",
    message: task.message ?? "",
    reason: task.reason ?? "",
    failureCount: task.failureCount,
    version: { value: String(task.configVersion) },
    containersStatus: [
      {
        name: task.name,
        ports: task.ports,
        healthy: { state: health, output: task.healthMessage ?? "" },
        startTime: timeText(task.startedAt),
        completionTime: timeText(task.finishedAt),
        message: task.message ?? "",
        reason: task.reason ?? "",
        failureCount: task.failureCount,
        ...terminationOf(task),
      },
    ],
    revision: {
      createdAt: BigInt(task.createdAt.getTime()),
      updatedAt: BigInt(task.updatedAt.getTime()),
    },
  };
}

export function podSummary(task: TaskListed): MessageInitShape<typeof PodSummarySchema> {
  return {
    podName: { value: podName(task.jobId, task.instanceId) },
    status: podStatus(task),
  };
}
