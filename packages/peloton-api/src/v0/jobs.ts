/**
 * Peloton's v0 job operations over the jobs router, once: JobManager and
 * its newer spelling job.svc.JobService map their requests onto these.
 * Create submits the config as the CLI's YAML would be; reads and actions
 * are `peloton job get|list|delete|start|stop|restart`.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { JOB_STATES, TERMINAL_JOB_STATES } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { collect } from "../calls/pages.ts";
import { readJob } from "../calls/read-job.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import {
  type JobConfig,
  JobConfigSchema,
  type JobInfoSchema,
  type JobSummarySchema,
  type QuerySpec,
} from "../generated/peloton/api/v0/job/job_pb.ts";
import type { JobID, Secret } from "../generated/peloton/api/v0/peloton_pb.ts";
import type { PaginationSpec } from "../generated/peloton/api/v0/query/query_pb.ts";
import type { InstanceRange } from "../generated/peloton/api/v0/task/task_pb.ts";
import { configYaml } from "./config.ts";
import { instanceRanges, jobId } from "./ids.ts";
import { jobInfo, jobStateNames, jobSummary } from "./job-info.ts";
import { JOB_SORTS, routerSort } from "./order-by.ts";
import { startUpdate } from "./updates.ts";

/** Not terminal (engine's TERMINAL_JOB_STATES), not deleted. */
const ACTIVE_STATES = JOB_STATES.filter(
  (s) => !(TERMINAL_JOB_STATES as readonly string[]).includes(s) && s !== "DELETED",
);

function noSecrets(secrets: readonly Secret[]): void {
  if (secrets.length)
    throw unimplemented("secrets: job secrets are not supported by this scheduler yet");
}

/** A new job; `pool` (a path) wins over the config's respoolID, as `peloton job create <pool>`. */
export async function createJob(
  caller: Caller,
  req: { id?: JobID | undefined; config?: JobConfig | undefined; secrets: Secret[]; pool?: string },
): Promise<string> {
  if (req.id?.value)
    throw unimplemented(
      "id: this scheduler chooses job ids; leave the request's id empty and read the answer's jobId",
    );
  noSecrets(req.secrets);
  if (!req.config) throw invalidArgument("config", "a job needs its config");
  const created = await caller.jobs.create({
    yaml: configYaml(JobConfigSchema, req.config),
    ...(req.pool ? { pool: req.pool } : {}),
  });
  return created.id;
}

export async function getJob(
  caller: Caller,
  id: JobID | undefined,
): Promise<MessageInitShape<typeof JobInfoSchema>> {
  return jobInfo(await readJob(caller, jobId(id)));
}

/**
 * The jobs `spec` selects (at most 500 a call), as summaries and, unless
 * `summaryOnly`, as JobInfo. `pagination` is the request's own when it has
 * one (JobService), else the spec's (JobManager).
 */
export async function queryJobs(
  caller: Caller,
  req: {
    spec: QuerySpec | undefined;
    pagination?: PaginationSpec | undefined;
    pool?: string | undefined;
    summaryOnly: boolean;
  },
): Promise<{
  results: MessageInitShape<typeof JobSummarySchema>[];
  records: MessageInitShape<typeof JobInfoSchema>[];
}> {
  const spec = req.spec;
  const pagination = req.pagination ?? spec?.pagination;
  if (spec?.keywords.length)
    throw unimplemented("spec.keywords: search by keyword is not supported; use spec.name");
  if (pagination?.offset)
    throw unimplemented(
      "pagination.offset: this scheduler pages with cursors; ask for up to 500 jobs with limit",
    );
  if (spec?.creationTimeRange || spec?.completionTimeRange)
    throw unimplemented("spec.creationTimeRange, spec.completionTimeRange: not supported yet");
  const pool = spec?.respool?.value || req.pool || undefined;
  const sorted = routerSort(req, JOB_SORTS);
  const page = await caller.jobs.list({
    ...sorted,
    states: jobStateNames(spec?.jobStates ?? []),
    ...(pool ? { pool } : {}),
    ...(spec?.owner ? { owner: spec.owner } : {}),
    text: spec?.name ?? "",
    labels: (spec?.labels ?? []).map((l) => ({ key: l.key, value: l.value })),
    limit: Math.min(pagination?.limit || 100, 500),
  });
  const results = page.items.map(jobSummary);
  if (req.summaryOnly) return { results, records: [] };
  const records = await Promise.all(page.items.map((j) => readJob(caller, j.id)));
  return { results, records: records.map(jobInfo) };
}

/** Every job not in a terminal state (Peloton's "active" jobs), page after page. */
export async function activeJobIds(caller: Caller): Promise<string[]> {
  const jobs = await collect((cursor) =>
    caller.jobs.list({ states: ACTIVE_STATES, limit: 500, cursor }),
  );
  return jobs.map((j) => j.id);
}

export async function deleteJob(caller: Caller, id: JobID | undefined): Promise<void> {
  await caller.jobs.delete({ id: jobId(id) });
}

/**
 * Replaces the job's config by a rolling update with the router's default
 * options (one instance at a time), as UpdateService.CreateUpdate would;
 * an active update is refused rather than aborted (CreateUpdate overrides
 * it). Peloton's Update only adds instances to BATCH jobs; here a BATCH
 * job's update is refused by the router (README).
 */
export async function updateJob(
  caller: Caller,
  req: { id?: JobID | undefined; config?: JobConfig | undefined; secrets: Secret[] },
): Promise<{ jobId: string; updateId: string }> {
  noSecrets(req.secrets);
  if (!req.config) throw invalidArgument("config", "an update needs the job's new config");
  const id = jobId(req.id);
  const { updateId } = await startUpdate(caller, {
    jobId: id,
    config: req.config,
    override: false,
  });
  return { jobId: id, updateId };
}

export type RollingKind = "start" | "stop" | "restart";

/**
 * Starts, stops or restarts instances. With a batch size the whole job
 * goes through the update workflow in batches (`peloton job restart -b`),
 * checked against `resourceVersion` when given; without one the instances
 * in `ranges` (every one when none) are acted on at once.
 */
export async function rollingAction(
  caller: Caller,
  kind: RollingKind,
  req: {
    id?: JobID | undefined;
    ranges: readonly InstanceRange[];
    resourceVersion: bigint;
    batchSize: number;
  },
): Promise<{ resourceVersion: bigint; updateID?: { value: string } }> {
  const id = jobId(req.id);
  if (req.batchSize > 0) {
    if (req.ranges.length)
      throw unimplemented(
        `ranges: ${kind}ing in batches covers the whole job; send no ranges with ${kind}Config.batchSize`,
      );
    const done = await caller.jobs[kind]({
      id,
      batchSize: req.batchSize,
      ...(req.resourceVersion > 0n ? { version: Number(req.resourceVersion) } : {}),
    });
    return {
      resourceVersion: BigInt(done.version),
      ...(done.updateId ? { updateID: { value: done.updateId } } : {}),
    };
  }
  const ranges = instanceRanges(req.ranges);
  const done = await caller.tasks[kind]({ jobId: id, ...(ranges ? { instances: ranges } : {}) });
  return { resourceVersion: BigInt(done.version) };
}
