/** Our jobs as Peloton's JobInfo and JobSummary. */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { JOB_STATES, type JobState as OurJobState } from "@peloton/engine";
import {
  type JobConfig,
  JobConfigSchema,
  type JobInfoSchema,
  JobState,
  type JobSummarySchema,
  JobType,
  type RuntimeInfoSchema,
  SlaConfigSchema,
} from "../generated/peloton/api/v0/job/job_pb.ts";
import { pelotonMessage, timeText } from "./config.ts";

type Outputs = inferRouterOutputs<AppRouter>;
type JobDetail = Outputs["jobs"]["get"];
/** What a listed job and a read one both have (a list row's firstWaiting is the console's). */
export type JobListed = Omit<Outputs["jobs"]["list"]["items"][number], "firstWaiting">;

export function jobStateOf(name: string): JobState {
  return JobState[name as keyof typeof JobState] ?? JobState.UNKNOWN;
}

/** Peloton's job states as ours (the same names and numbers); ones we never use match no job. */
export function jobStateNames(states: readonly JobState[]): OurJobState[] {
  return states
    .map((s) => JobState[s])
    .filter((n): n is OurJobState => (JOB_STATES as readonly string[]).includes(n));
}

function runtime(job: JobListed): MessageInitShape<typeof RuntimeInfoSchema> {
  return {
    state: jobStateOf(job.state),
    goalState: jobStateOf(job.goalState),
    creationTime: timeText(job.createdAt),
    completionTime: timeText(job.completedAt),
    taskStats: Object.fromEntries(Object.entries(job.taskStats).map(([k, v]) => [k, v ?? 0])),
    configurationVersion: BigInt(job.configVersion),
    revision: {
      version: BigInt(job.version),
      createdAt: BigInt(job.createdAt.getTime()),
      updatedAt: BigInt(job.updatedAt.getTime()),
      updatedBy: job.submittedBy,
    },
  };
}

/**
 * Converted configs by what the conversion reads: the job, its config
 * version (a version's config never changes; an update writes a new one)
 * and its pool's path. Converting is about a twentieth of a JobManager.Get,
 * and clients poll the same jobs; the oldest entry goes past the bound.
 * Messages are only read once built (encoded), so sharing one is safe.
 */
const convertedConfigs = new Map<string, JobConfig>();
const MAX_CONVERTED_CONFIGS = 1_000;

/**
 * The job's stored config as Peloton's, with the pool it runs in as
 * `respoolID` even when the submission named the pool rather than the file.
 */
export function jobConfig(job: JobDetail): JobConfig {
  const key = `${job.id} ${job.configVersion} ${job.poolPath}`;
  let message = convertedConfigs.get(key);
  if (!message) {
    message = pelotonMessage(JobConfigSchema, {
      ...(job.config as object),
      respoolId: { value: job.poolPath },
    });
    if (convertedConfigs.size >= MAX_CONVERTED_CONFIGS)
      convertedConfigs.delete(convertedConfigs.keys().next().value as string);
    convertedConfigs.set(key, message);
  }
  return message;
}

export function jobInfo(job: JobDetail): MessageInitShape<typeof JobInfoSchema> {
  return {
    id: { value: job.id },
    config: jobConfig(job),
    runtime: runtime(job),
  };
}

export function jobSummary(job: JobListed): MessageInitShape<typeof JobSummarySchema> {
  return {
    id: { value: job.id },
    name: job.name,
    type: JobType[job.type as keyof typeof JobType] ?? JobType.BATCH,
    owner: job.owner,
    owningTeam: job.owningTeam,
    labels: job.labels,
    instanceCount: job.instanceCount,
    respoolID: { value: job.poolPath },
    runtime: runtime(job),
    sla: pelotonMessage(SlaConfigSchema, {
      priority: job.priority,
      preemptible: job.preemptible,
      revocable: job.revocable,
    }),
  };
}
