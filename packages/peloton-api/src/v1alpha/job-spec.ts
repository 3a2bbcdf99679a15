/**
 * v1alpha stateless jobs over our jobs: a JobSpec is submitted as the v0
 * JobConfig it means (type SERVICE, each PodSpec as its TaskConfig, as
 * Peloton's own job manager converts it), so it is decoded, checked and
 * stored by the same code as `peloton job create`; a stored job is read
 * back through v0's JobConfig into Peloton's JobSpec, JobStatus and
 * JobSummary. An entity version here is "<config version>-<job version>":
 * the configuration the job is headed for, and the job's intent version
 * (bumped by every action on it).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { invalidArgument } from "../calls/status.ts";
import {
  type JobConfig,
  JobConfigSchema,
  JobType,
} from "../generated/peloton/api/v0/job/job_pb.ts";
import {
  type JobInfoSchema,
  type JobSpec,
  type JobSpecSchema,
  JobState,
  type JobStatusSchema,
  type JobSummarySchema,
  WorkflowState,
  type WorkflowStatusSchema,
} from "../generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import { pelotonMessage, timeText } from "../v0/config.ts";
import type { JobListed } from "../v0/job-info.ts";
import { podSpecOf, taskConfigOf } from "./pod-spec.ts";

type Outputs = inferRouterOutputs<AppRouter>;
export type UpdateView = Outputs["updates"]["get"];

/** Peloton's workflow types, with the START and STOP its models also have (3, 4). */
const WORKFLOW_TYPES = { UPDATE: 1, RESTART: 2, START: 3, STOP: 4 } as const;

export function jobStateOf(name: string): JobState {
  return JobState[name as keyof typeof JobState] ?? JobState.INVALID;
}

export function workflowStateOf(name: string | null): WorkflowState {
  return name === null
    ? WorkflowState.INVALID
    : (WorkflowState[name as keyof typeof WorkflowState] ?? WorkflowState.INVALID);
}

export function workflowTypeOf(kind: string): number {
  return WORKFLOW_TYPES[kind as keyof typeof WORKFLOW_TYPES] ?? 0;
}

export function entityVersion(job: { configVersion: number; version: number }): {
  value: string;
} {
  return { value: `${job.configVersion}-${job.version}` };
}

/** A client's entity version: none when empty, else both numbers, or the field named. */
export function parseEntityVersion(
  value: string | undefined,
  field = "version.value",
): { configVersion: number; version: number } | undefined {
  if (!value) return undefined;
  const m = /^(\d{1,9})-(\d{1,9})$/.exec(value);
  if (!m)
    throw invalidArgument(
      field,
      `an entity version is "<config version>-<job version>" as GetJob answers it (got "${value}")`,
    );
  return { configVersion: Number(m[1]), version: Number(m[2]) };
}

/** The v0 job config a stateless JobSpec means (field: where the spec is in the request). */
export function jobConfigOf(spec: JobSpec, field: string): JobConfig {
  const revocable = spec.sla?.revocable ?? false;
  const withRevocable = <T extends { revocable: boolean }>(c: T): T => {
    // Peloton puts the job's SLA revocable flag on every pod's config.
    if (spec.sla) c.revocable = revocable;
    return c;
  };
  return create(JobConfigSchema, {
    type: JobType.SERVICE,
    name: spec.name,
    owner: spec.owner,
    owningTeam: spec.owningTeam,
    ldapGroups: spec.ldapGroups,
    description: spec.description,
    labels: spec.labels.map(({ key, value }) => ({ key, value })),
    instanceCount: spec.instanceCount,
    ...(spec.sla
      ? {
          sla: {
            priority: spec.sla.priority,
            preemptible: spec.sla.preemptible,
            revocable: spec.sla.revocable,
            maximumUnavailableInstances: spec.sla.maximumUnavailableInstances,
          },
        }
      : {}),
    ...(spec.defaultSpec
      ? { defaultConfig: withRevocable(taskConfigOf(spec.defaultSpec, `${field}.defaultSpec`)) }
      : {}),
    instanceConfig: Object.fromEntries(
      Object.entries(spec.instanceSpec).map(([i, pod]) => [
        i,
        withRevocable(taskConfigOf(pod, `${field}.instanceSpec.${i}`)),
      ]),
    ),
    ...(spec.respoolId ? { respoolID: { value: spec.respoolId.value } } : {}),
  });
}

/** A stored config (ours, v0's shape) as Peloton's v1alpha JobSpec. */
export function jobSpecOf(
  config: unknown,
  job: { configVersion: number; createdAt: Date; updatedAt: Date; submittedBy: string },
): MessageInitShape<typeof JobSpecSchema> {
  const v0 = pelotonMessage(JobConfigSchema, config);
  return {
    revision: {
      version: BigInt(job.configVersion),
      createdAt: BigInt(job.createdAt.getTime()),
      updatedAt: BigInt(job.updatedAt.getTime()),
      updatedBy: job.submittedBy,
    },
    name: v0.name,
    owner: v0.owner,
    owningTeam: v0.owningTeam,
    ldapGroups: v0.ldapGroups,
    description: v0.description,
    labels: v0.labels.map(({ key, value }) => ({ key, value })),
    instanceCount: v0.instanceCount,
    ...(v0.sla
      ? {
          sla: {
            priority: v0.sla.priority,
            preemptible: v0.sla.preemptible,
            revocable: v0.sla.revocable,
            maximumUnavailableInstances: v0.sla.maximumUnavailableInstances,
          },
        }
      : {}),
    ...(v0.defaultConfig ? { defaultSpec: podSpecOf(v0.defaultConfig) } : {}),
    instanceSpec: Object.fromEntries(
      Object.entries(v0.instanceConfig).map(([i, c]) => [i, podSpecOf(c)]),
    ),
    ...(v0.respoolID ? { respoolId: { value: v0.respoolID.value } } : {}),
  };
}

export function workflowStatus(
  u: UpdateView,
  job: { configVersion: number; version: number },
): MessageInitShape<typeof WorkflowStatusSchema> {
  return {
    type: workflowTypeOf(u.kind),
    state: workflowStateOf(u.state),
    prevState: workflowStateOf(u.previousState),
    numInstancesCompleted: u.numTasksDone,
    numInstancesRemaining: u.numTasksRemaining,
    numInstancesFailed: u.numTasksFailed,
    instancesCurrent: u.instancesCurrent,
    version: entityVersion({ configVersion: u.toVersion, version: job.version }),
    prevVersion: entityVersion({ configVersion: u.fromVersion, version: job.version }),
    creationTime: timeText(u.createdAt),
    updateTime: timeText(u.updatedAt),
    completionTime: timeText(u.completedAt),
  };
}

export function jobStatus(
  job: JobListed,
  update: UpdateView | null,
): MessageInitShape<typeof JobStatusSchema> {
  return {
    revision: {
      version: BigInt(job.version),
      createdAt: BigInt(job.createdAt.getTime()),
      updatedAt: BigInt(job.updatedAt.getTime()),
      updatedBy: job.submittedBy,
    },
    state: jobStateOf(job.state),
    desiredState: jobStateOf(job.goalState),
    creationTime: timeText(job.createdAt),
    // Peloton's pod stats name the pod states (POD_STATE_RUNNING).
    podStats: Object.fromEntries(
      Object.entries(job.taskStats).map(([k, v]) => [`POD_STATE_${k}`, v ?? 0]),
    ),
    version: entityVersion(job),
    ...(update ? { workflowStatus: workflowStatus(update, job) } : {}),
  };
}

export function jobSummary(
  job: JobListed,
  update: UpdateView | null,
): MessageInitShape<typeof JobSummarySchema> {
  return {
    jobId: { value: job.id },
    name: job.name,
    owner: job.owner,
    owningTeam: job.owningTeam,
    labels: job.labels,
    instanceCount: job.instanceCount,
    respoolId: { value: job.poolPath },
    status: jobStatus(job, update),
    sla: { priority: job.priority, preemptible: job.preemptible, revocable: job.revocable },
  };
}

export function jobInfo(
  job: JobListed & { config: unknown },
  update: UpdateView | null,
  config: unknown = job.config,
): MessageInitShape<typeof JobInfoSchema> {
  return {
    jobId: { value: job.id },
    spec: jobSpecOf(config, job),
    status: jobStatus(job, update),
  };
}
