/**
 * peloton.api.v0.job.JobManager over the shared job operations (jobs.ts):
 * Create, Get, Query, Delete, Update, Start, Stop, Restart, GetActiveJobs.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { JobManager } from "../generated/peloton/api/v0/job/job_pb.ts";
import {
  activeJobIds,
  createJob,
  deleteJob,
  getJob,
  queryJobs,
  rollingAction,
  updateJob,
} from "./jobs.ts";
import { updateCreateFields } from "./updates.ts";

const handlers: Implementation<typeof JobManager> = {
  async create(req, { caller }) {
    return { jobId: { value: await createJob(caller, req) } };
  },

  async get(req, { caller }) {
    return { jobInfo: await getJob(caller, req.id) };
  },

  async query(req, { caller }) {
    const found = await queryJobs(caller, {
      spec: req.spec,
      pool: req.respoolID?.value,
      summaryOnly: req.summaryOnly,
    });
    return req.summaryOnly
      ? { results: found.results, spec: req.spec }
      : { ...found, spec: req.spec };
  },

  async getActiveJobs(_req, { caller }) {
    return { ids: (await activeJobIds(caller)).map((value) => ({ value })) };
  },

  async delete(req, { caller }) {
    await deleteJob(caller, req.id);
    return {};
  },

  async update(req, { caller }) {
    const { jobId, updateId } = await updateJob(caller, req);
    return {
      id: { value: jobId },
      message: `update ${updateId} started: UpdateService.GetUpdate follows it`,
    };
  },

  start: (req, { caller }) =>
    rollingAction(caller, "start", { ...req, batchSize: req.startConfig?.batchSize ?? 0 }),

  stop: (req, { caller }) =>
    rollingAction(caller, "stop", { ...req, batchSize: req.stopConfig?.batchSize ?? 0 }),

  restart: (req, { caller }) =>
    rollingAction(caller, "restart", { ...req, batchSize: req.restartConfig?.batchSize ?? 0 }),
};

const MISSING: Record<string, string> = {
  Refresh:
    "JobManager.Refresh: this scheduler keeps no job cache to reload; jobs are read from the database",
  GetCache: "JobManager.GetCache: this scheduler keeps no job cache; use Get",
};

export const jobManager = serve(
  JobManager,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `JobManager.${m.name} is not served yet`,
  { Create: "config.", Update: updateCreateFields("id", "config") },
);
