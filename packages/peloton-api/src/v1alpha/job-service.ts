/**
 * peloton.api.v1alpha.job.stateless.svc.JobService over the jobs, tasks
 * and updates routers. A JobSpec is submitted as the v0 config it means
 * (job-spec.ts), so the job is the one `peloton job create` would store;
 * reads answer Peloton's JobInfo, JobSummary and PodSummary; replacing a
 * job's spec and pausing, resuming or aborting it are our update workflow
 * (docs/updates.md, job-workflows.ts). Entity versions are
 * "<config version>-<job version>".
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { JOB_STATES, type JobState as OurJobState, TERMINAL_JOB_STATES } from "@peloton/engine";
import { collect, pages } from "../calls/pages.ts";
import { readJob } from "../calls/read-job.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { JobConfigSchema } from "../generated/peloton/api/v0/job/job_pb.ts";
import { JobState } from "../generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import { JobService } from "../generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import { configYaml } from "../v0/config.ts";
import { JOB_SORTS, routerSort } from "../v0/order-by.ts";
import { jobPodHandlers } from "./job-pods.ts";
import { currentVersion, jobIdOf, jobRefField } from "./job-refs.ts";
import { jobReplaceHandlers } from "./job-replace.ts";
import { entityVersion, jobConfigOf, jobInfo, jobSummary, parseEntityVersion } from "./job-spec.ts";
import { jobWorkflowHandlers, latestUpdate, workflowInfo } from "./job-workflows.ts";
import { naming, specField } from "./spec-fields.ts";
import { workflowEventHandlers } from "./workflow-events.ts";

/** Peloton's job states as ours (the same names); ones we never use match no job. */
function ourStates(states: readonly JobState[]): OurJobState[] {
  return states
    .map((s) => JobState[s])
    .filter((n): n is OurJobState => (JOB_STATES as readonly string[]).includes(n ?? ""));
}

const jobHandlers: Implementation<typeof JobService> = {
  async createJob(req, { caller }) {
    if (req.jobId?.value)
      throw unimplemented(
        "jobId: this scheduler chooses job ids; leave it empty and read CreateJobResponse.jobId",
      );
    if (req.secrets.length)
      throw unimplemented("secrets: job secrets are not supported by this scheduler yet");
    const cs = req.createSpec;
    if (
      cs &&
      (cs.batchSize || cs.maxInstanceRetries || cs.maxTolerableInstanceFailures || cs.startPaused)
    )
      throw unimplemented(
        "createSpec: a job's instances start together here; creating in batches is not supported",
      );
    if (req.opaqueData?.data)
      throw unimplemented("opaqueData: this scheduler keeps no opaque data with a workflow");
    if (!req.spec) throw invalidArgument("spec", "a job needs its spec");
    const yaml = configYaml(JobConfigSchema, jobConfigOf(req.spec, "spec"));
    const created = await naming((f) => `spec.${specField(f)}`, caller.jobs.create({ yaml }));
    return { jobId: { value: created.id }, version: await currentVersion(caller, created.id) };
  },

  /** The job (at a configuration version when `version` names one), or its summary. */
  async getJob(req, { caller }) {
    const id = jobIdOf(req.jobId);
    const job = await naming(jobRefField, readJob(caller, id));
    const update = await latestUpdate(caller, id);
    if (req.summaryOnly) return { summary: jobSummary(job, update) };
    const asked = parseEntityVersion(req.version?.value);
    const config =
      asked && asked.configVersion !== job.configVersion
        ? (
            await naming(
              (f) => (f === "version" ? "version.value" : jobRefField(f)),
              caller.jobs.configVersion({ id, version: asked.configVersion }),
            )
          ).config
        : job.config;
    return {
      jobInfo: jobInfo(job, update, config),
      ...(update ? { workflowInfo: await workflowInfo(caller, update, job, false) } : {}),
    };
  },

  async queryJobs(req, { caller }) {
    const spec = req.spec;
    if (spec?.keywords.length)
      throw unimplemented("spec.keywords: search by keyword is not supported; use spec.name");
    if (spec?.pagination?.offset)
      throw unimplemented(
        "spec.pagination.offset: this scheduler pages with cursors; ask for up to 500 jobs with limit",
      );
    if (spec?.creationTimeRange || spec?.completionTimeRange)
      throw unimplemented("spec.creationTimeRange, spec.completionTimeRange: not supported yet");
    const pool = spec?.respool?.value || undefined;
    const sorted = routerSort({ spec }, JOB_SORTS);
    const page = await naming(
      (f) => (f === "pool" ? "spec.respool.value" : `spec.${f}`),
      caller.jobs.list({
        ...sorted,
        states: ourStates(spec?.jobStates ?? []),
        ...(pool ? { pool } : {}),
        ...(spec?.owner ? { owner: spec.owner } : {}),
        text: spec?.name ?? "",
        labels: (spec?.labels ?? []).map((l) => ({ key: l.key, value: l.value })),
        limit: Math.min(spec?.pagination?.limit || 100, 500),
      }),
    );
    return {
      records: page.items.map((j) => jobSummary(j, null)),
      pagination: { limit: spec?.pagination?.limit ?? 0, offset: 0 },
      ...(spec ? { spec } : {}),
    };
  },

  /** Every job but deleted ones, a page per answer. */
  async *listJobs(_req, { caller }) {
    for await (const jobs of pages((cursor) => caller.jobs.list({ limit: 500, cursor })))
      yield { jobs: jobs.map((j) => jobSummary(j, null)) };
  },

  /** The ids of the jobs named exactly `jobName`, deleted ones aside. */
  async getJobIDFromJobName(req, { caller }) {
    if (!req.jobName) throw invalidArgument("jobName", "name the job");
    const named = await collect(
      (cursor) =>
        naming(
          (f) => (f === "text" ? "jobName" : f),
          caller.jobs.list({ text: req.jobName, limit: 500, cursor }),
        ),
      { keep: (j) => j.name === req.jobName },
    );
    const ids = named.map((j) => j.id);
    if (ids.length === 0)
      throw new ConnectError(`jobName: no job is named "${req.jobName}"`, Code.NotFound);
    return { jobId: ids.map((value) => ({ value })) };
  },

  async startJob(req, { caller }) {
    const id = jobIdOf(req.jobId);
    const version = parseEntityVersion(req.version?.value)?.version;
    await naming(jobRefField, caller.jobs.start({ id, ...(version ? { version } : {}) }));
    return { version: await currentVersion(caller, id) };
  },

  async stopJob(req, { caller }) {
    const id = jobIdOf(req.jobId);
    const version = parseEntityVersion(req.version?.value)?.version;
    await naming(jobRefField, caller.jobs.stop({ id, ...(version ? { version } : {}) }));
    return { version: await currentVersion(caller, id) };
  },

  /** Every instance (or the ranges') replaced by a new run; with a batch size, a rolling restart. */
  async restartJob(req, { caller }) {
    const id = jobIdOf(req.jobId);
    const version = parseEntityVersion(req.version?.value)?.version;
    const spec = req.restartSpec;
    if (spec?.inPlace)
      throw unimplemented("restartSpec.inPlace: a restart places each new run afresh here");
    if (req.opaqueData?.data)
      throw unimplemented("opaqueData: this scheduler keeps no opaque data with a workflow");
    if (spec?.ranges.length) {
      if (spec.batchSize)
        throw unimplemented(
          "restartSpec.batchSize: a rolling restart takes every instance here; give batchSize or ranges, not both",
        );
      const instances = spec.ranges.map((r, i) => {
        if (r.to <= r.from)
          throw invalidArgument(
            `restartSpec.ranges[${i}]`,
            `a range runs from 'from' up to, not including, 'to' (got ${r.from} to ${r.to})`,
          );
        return { from: r.from, to: r.to - 1 };
      });
      if (version !== undefined) {
        const job = await naming(jobRefField, readJob(caller, id));
        if (job.version !== version)
          throw new ConnectError(
            `version.value: the job is at ${entityVersion(job).value} now; read it again`,
            Code.Aborted,
          );
      }
      await naming(
        (f) => (f === "jobId" ? "jobId.value" : f.replace(/^instances/, "restartSpec.ranges")),
        caller.tasks.restart({ jobId: id, instances }),
      );
    } else {
      await naming(
        (f) => (f === "batchSize" ? "restartSpec.batchSize" : jobRefField(f)),
        caller.jobs.restart({
          id,
          ...(version ? { version } : {}),
          ...(spec?.batchSize ? { batchSize: spec.batchSize } : {}),
        }),
      );
    }
    return { version: await currentVersion(caller, id) };
  },

  /** Peloton deletes a job that has ended; `force` kills a running one first. */
  async deleteJob(req, { caller }) {
    const id = jobIdOf(req.jobId);
    const version = parseEntityVersion(req.version?.value)?.version;
    if (!req.force) {
      const job = await naming(jobRefField, readJob(caller, id));
      if (!(TERMINAL_JOB_STATES as readonly string[]).includes(job.state))
        throw new ConnectError(
          `force: job ${id} is ${job.state}; stop it first, or delete it with force`,
          Code.FailedPrecondition,
        );
    }
    await naming(jobRefField, caller.jobs.delete({ id, ...(version ? { version } : {}) }));
    return {};
  },
};

const MISSING: Record<string, string> = {
  RefreshJob: "JobService.RefreshJob: this scheduler keeps no job cache to reload",
  GetJobCache: "JobService.GetJobCache: this scheduler keeps no job cache; use GetJob",
};

export const statelessJobService = serve(
  JobService,
  {
    ...jobHandlers,
    ...jobReplaceHandlers,
    ...jobWorkflowHandlers,
    ...workflowEventHandlers,
    ...jobPodHandlers,
  },
  (m: DescMethod) => MISSING[m.name] ?? `JobService.${m.name} is not served yet`,
);
