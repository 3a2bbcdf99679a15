/**
 * peloton.api.v0.job.svc.JobService, Peloton's newer spelling of
 * JobManager, over the same job operations (jobs.ts).
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { readJob } from "../calls/read-job.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { JobService } from "../generated/peloton/api/v0/job/svc/job_svc_pb.ts";
import { jobId } from "./ids.ts";
import { jobConfig } from "./job-info.ts";
import { createJob, deleteJob, queryJobs, rollingAction, updateJob } from "./jobs.ts";
import { updateCreateFields } from "./updates.ts";

const handlers: Implementation<typeof JobService> = {
  async createJob(req, { caller }) {
    const { id, config, secrets } = req;
    const pool = req.pool?.value;
    const created = await createJob(caller, { id, config, secrets, ...(pool ? { pool } : {}) });
    return { jobId: { value: created } };
  },

  /** The job's config (JobManager.Get answers its runtime too). */
  async getJob(req, { caller }) {
    const job = await readJob(caller, jobId(req.id));
    return { result: jobConfig(job) };
  },

  async queryJobs(req, { caller }) {
    const { records } = await queryJobs(caller, {
      spec: req.spec,
      pagination: req.pagination,
      summaryOnly: false,
    });
    return { records, spec: req.spec };
  },

  async deleteJob(req, { caller }) {
    await deleteJob(caller, req.id);
    return {};
  },

  async updateJob(req, { caller }) {
    await updateJob(caller, req);
    return {};
  },

  startJob: (req, { caller }) =>
    rollingAction(caller, "start", { ...req, batchSize: req.startConfig?.batchSize ?? 0 }),
  stopJob: (req, { caller }) =>
    rollingAction(caller, "stop", { ...req, batchSize: req.stopConfig?.batchSize ?? 0 }),
  restartJob: (req, { caller }) =>
    rollingAction(caller, "restart", { ...req, batchSize: req.restartConfig?.batchSize ?? 0 }),
};

const MISSING: Record<string, string> = {
  RefreshJob:
    "JobService.RefreshJob: this scheduler keeps no job cache to reload; jobs are read from the database",
  GetJobCache: "JobService.GetJobCache: this scheduler keeps no job cache; use GetJob",
};

export const jobServiceV0 = serve(
  JobService,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `JobService.${m.name} is not served yet`,
  { CreateJob: "config.", UpdateJob: updateCreateFields("id", "config") },
);
