/**
 * peloton.api.v0.job.JobManager over the jobs router: Create submits the
 * config as the CLI's YAML would be; Get, Query and Delete read and act as
 * `peloton job get|list|delete`; Start, Stop and Restart act on instances.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { JOB_STATES, TERMINAL_JOB_STATES } from "@peloton/engine";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { JobConfigSchema, JobManager } from "../generated/peloton/api/v0/job/job_pb.ts";
import { configYaml } from "./config.ts";
import { instanceRanges, jobId } from "./ids.ts";
import { jobInfo, jobStateNames, jobSummary } from "./job-info.ts";
import { startUpdate, updateCreateFields } from "./updates.ts";

/** Not terminal (engine's TERMINAL_JOB_STATES), not deleted. */
const ACTIVE_STATES = JOB_STATES.filter(
  (s) => !(TERMINAL_JOB_STATES as readonly string[]).includes(s) && s !== "DELETED",
);

const handlers: Implementation<typeof JobManager> = {
  async create(req, { caller }) {
    if (req.id?.value)
      throw unimplemented(
        "id: this scheduler chooses job ids; leave CreateRequest.id empty and read CreateResponse.jobId",
      );
    if (req.secrets.length)
      throw unimplemented("secrets: job secrets are not supported by this scheduler yet");
    if (!req.config) throw invalidArgument("config", "a job needs its config");
    const created = await caller.jobs.create({ yaml: configYaml(JobConfigSchema, req.config) });
    return { jobId: { value: created.id } };
  },

  async get(req, { caller }) {
    const job = await caller.jobs.get({ id: jobId(req.id) });
    return { jobInfo: jobInfo(job) };
  },

  async query(req, { caller }) {
    const spec = req.spec;
    if (spec?.keywords.length)
      throw unimplemented("spec.keywords: search by keyword is not supported; use spec.name");
    if (spec?.pagination?.offset)
      throw unimplemented(
        "spec.pagination.offset: this scheduler pages with cursors; ask for up to 500 jobs with limit",
      );
    if (spec?.creationTimeRange || spec?.completionTimeRange)
      throw unimplemented("spec.creationTimeRange, spec.completionTimeRange: not supported yet");
    const pool = spec?.respool?.value || req.respoolID?.value || undefined;
    const page = await caller.jobs.list({
      states: jobStateNames(spec?.jobStates ?? []),
      ...(pool ? { pool } : {}),
      ...(spec?.owner ? { owner: spec.owner } : {}),
      text: spec?.name ?? "",
      labels: (spec?.labels ?? []).map((l) => ({ key: l.key, value: l.value })),
      limit: Math.min(spec?.pagination?.limit || 100, 500),
    });
    if (req.summaryOnly) return { results: page.items.map(jobSummary), spec };
    const records = await Promise.all(page.items.map((j) => caller.jobs.get({ id: j.id })));
    return { records: records.map(jobInfo), results: page.items.map(jobSummary), spec };
  },

  /** Every job not in a terminal state (Peloton's "active" jobs), page after page. */
  async getActiveJobs(_req, { caller }) {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof caller.jobs.list>> = await caller.jobs.list({
        states: ACTIVE_STATES,
        limit: 500,
        cursor,
      });
      ids.push(...page.items.map((j) => j.id));
      cursor = page.nextCursor;
    } while (cursor);
    return { ids: ids.map((value) => ({ value })) };
  },

  async delete(req, { caller }) {
    await caller.jobs.delete({ id: jobId(req.id) });
    return {};
  },

  async start(req, { caller }) {
    if (req.startConfig?.batchSize)
      throw unimplemented("startConfig.batchSize: starting in batches is not supported yet");
    const id = jobId(req.id);
    const ranges = instanceRanges(req.ranges);
    const done = await caller.tasks.start({ jobId: id, ...(ranges ? { instances: ranges } : {}) });
    return { resourceVersion: BigInt(done.version) };
  },

  async stop(req, { caller }) {
    if (req.stopConfig?.batchSize)
      throw unimplemented("stopConfig.batchSize: stopping in batches is not supported yet");
    const id = jobId(req.id);
    const ranges = instanceRanges(req.ranges);
    const done = await caller.tasks.stop({ jobId: id, ...(ranges ? { instances: ranges } : {}) });
    return { resourceVersion: BigInt(done.version) };
  },

  /**
   * Replaces the job's config by a rolling update with the router's default
   * options (one instance at a time), as UpdateService.CreateUpdate would;
   * an active update is refused rather than aborted (use CreateUpdate to
   * override it). Peloton's Update only adds instances to BATCH jobs; here
   * a BATCH job's update is refused by the router (README).
   */
  async update(req, { caller }) {
    if (req.secrets.length)
      throw unimplemented("secrets: job secrets are not supported by this scheduler yet");
    if (!req.config) throw invalidArgument("config", "an update needs the job's new config");
    const id = jobId(req.id);
    const { updateId } = await startUpdate(caller, {
      jobId: id,
      config: req.config,
      override: false,
    });
    return {
      id: { value: id },
      message: `update ${updateId} started: UpdateService.GetUpdate follows it`,
    };
  },

  async restart(req, { caller }) {
    if (req.restartConfig?.batchSize)
      throw unimplemented("restartConfig.batchSize: restarting in batches is not supported yet");
    const id = jobId(req.id);
    const ranges = instanceRanges(req.ranges);
    const done = await caller.tasks.restart({
      jobId: id,
      ...(ranges ? { instances: ranges } : {}),
    });
    return { resourceVersion: BigInt(done.version) };
  },
};

const MISSING: Record<string, string> = {
  Refresh:
    "JobManager.Refresh: this scheduler keeps no job cache to reload; jobs are read from the database",
  GetCache: "JobManager.GetCache: this scheduler keeps no job cache; use Get",
  GetActiveJobs:
    "JobManager.GetActiveJobs: not served yet; use Query with the non-terminal jobStates",
};

export const jobManager = serve(
  JobManager,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `JobManager.${m.name} is not served yet`,
  { Create: "config.", Update: updateCreateFields("id", "config") },
);
