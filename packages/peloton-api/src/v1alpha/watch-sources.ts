/**
 * What a WatchService.Watch follows, one source per filter: the stateless
 * jobs a `stateless_job_filter` selects, the pods of a `pod_filter`'s job.
 * Each source rereads its objects through the router when the change feed
 * announces its topic (only the announced keys when it names them) and
 * answers those that changed since it last answered them.
 */
import { create, type MessageInitShape, toJsonString } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { type JobConfig, taskConfigFor } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { collect } from "../calls/pages.ts";
import { readJob } from "../calls/read-job.ts";
import { invalidArgument } from "../calls/status.ts";
import { JobSummarySchema } from "../generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import type { PodSummarySchema } from "../generated/peloton/api/v1alpha/pod/pod_pb.ts";
import type {
  PodFilter,
  StatelessJobFilter,
} from "../generated/peloton/api/v1alpha/watch/watch_pb.ts";
import type { JobListed } from "../v0/job-info.ts";
import type { TaskListed } from "../v0/task-info.ts";
import { allTasks } from "../v0/tasks.ts";
import { jobSummary } from "./job-spec.ts";
import { podName, podSummary } from "./pods.ts";
import { naming } from "./spec-fields.ts";

/** What one read found changed (WatchResponse without its id and revision). */
export interface WatchAnswer {
  statelessJobs: MessageInitShape<typeof JobSummarySchema>[];
  statelessJobsNotFound: { value: string }[];
  pods: MessageInitShape<typeof PodSummarySchema>[];
  podsNotFound: { value: string }[];
}

export interface WatchSource {
  topic: "jobs" | "tasks";
  /** What changed among this source's objects (everything on the first read); `keys` narrows it. */
  read(keys: readonly string[] | null): Promise<WatchAnswer>;
}

type JobRead = inferRouterOutputs<AppRouter>["jobs"]["get"];
type Label = { key: string; value: string };

const hasLabels = (have: readonly Label[], want: readonly Label[]) =>
  want.every((w) => have.some((h) => h.key === w.key && h.value === w.value));

/** `read` when the job exists, null when the router says it does not. */
async function jobOrNull(read: Promise<JobRead>): Promise<JobRead | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.NotFound) return null;
    throw error;
  }
}

/**
 * Stateless jobs: the filter's `job_ids` (those missing answered in
 * `stateless_jobs_not_found`), else every SERVICE job but deleted ones;
 * with `labels`, only jobs carrying every one of them.
 */
export function jobSource(caller: Caller, filter: StatelessJobFilter): WatchSource {
  const ids = filter.jobIds.map((j) => j.value.toLowerCase());
  const labels = filter.labels.map(({ key, value }) => ({ key, value }));
  const sent = new Map<string, string>();
  const get = (id: string) =>
    jobOrNull(
      naming(() => `stateless_job_filter.job_ids[${ids.indexOf(id)}].value`, readJob(caller, id)),
    );

  function every(): Promise<JobListed[]> {
    return collect((cursor) =>
      naming(
        (f) => `stateless_job_filter.${f}`,
        caller.jobs.list({ types: ["SERVICE"], labels, limit: 500, cursor }),
      ),
    );
  }

  return {
    topic: "jobs",
    async read(keys) {
      const missing: string[] = [];
      let jobs: JobListed[];
      if (ids.length > 0 || keys) {
        const wanted =
          ids.length > 0 ? ids.filter((id) => !keys || keys.includes(id)) : (keys ?? []);
        const found = await Promise.all(wanted.map(async (id) => [id, await get(id)] as const));
        jobs = [];
        for (const [id, job] of found)
          if (job) jobs.push(job);
          else if (ids.length > 0) missing.push(id);
        // Without ids the source follows SERVICE jobs; a key of another job is not ours.
        if (ids.length === 0) jobs = jobs.filter((j) => j.type === "SERVICE");
      } else {
        jobs = await every();
      }
      const changed = jobs
        .filter((j) => hasLabels(j.labels, labels))
        .map((j) => jobSummary(j, null))
        .filter((s) => {
          const id = s.jobId?.value ?? "";
          const seen = toJsonString(JobSummarySchema, create(JobSummarySchema, s));
          if (sent.get(id) === seen) return false;
          sent.set(id, seen);
          return true;
        });
      const notFound = missing.filter((id) => {
        if (sent.get(id) === "missing") return false;
        sent.set(id, "missing");
        return true;
      });
      return {
        statelessJobs: changed,
        statelessJobsNotFound: notFound.map((value) => ({ value })),
        pods: [],
        podsNotFound: [],
      };
    },
  };
}

/**
 * A job's pods (`job_id` required), optionally by name and by labels: a
 * pod's labels are its instance's task config's (what GetPod's spec
 * shows), at the job's current config, every label required. A pod name
 * the job has no instance for (never had, or scaled away) is answered in
 * `pods_not_found`, once until it exists again.
 */
export function podSource(caller: Caller, filter: PodFilter): WatchSource {
  const jobId = filter.jobId?.value ?? "";
  if (!jobId) throw invalidArgument("pod_filter.job_id", "name the job whose pods to watch");
  const names = new Set(filter.podNames.map((n) => n.value));
  const labels = filter.labels.map(({ key, value }) => ({ key, value }));
  const name = (t: TaskListed) => podName(t.jobId, t.instanceId);
  const sent = new Map<string, string>();

  async function labelled(): Promise<(t: TaskListed) => boolean> {
    if (labels.length === 0) return () => true;
    const job = await naming(() => "pod_filter.job_id", readJob(caller, jobId));
    const config = job.config as JobConfig;
    return (t) => hasLabels(taskConfigFor(config, t.instanceId).labels ?? [], labels);
  }

  return {
    topic: "tasks",
    async read(keys) {
      if (keys && !keys.some((k) => k.startsWith(`${jobId}/`)))
        return { statelessJobs: [], statelessJobsNotFound: [], pods: [], podsNotFound: [] };
      const withLabels = await labelled();
      const tasks = await naming(() => "pod_filter.job_id", allTasks(caller, { jobId }));
      const pods = tasks
        .filter((t) => names.size === 0 || names.has(name(t)))
        .filter(withLabels)
        .filter((t) => {
          const seen = `${t.state}/${t.runId}/${t.goalState}`;
          if (sent.get(name(t)) === seen) return false;
          sent.set(name(t), seen);
          return true;
        });
      const existing = new Set(tasks.map(name));
      const notFound = [...names].filter((pod) => {
        if (existing.has(pod) || sent.get(pod) === "missing") return false;
        sent.set(pod, "missing");
        return true;
      });
      return {
        statelessJobs: [],
        statelessJobsNotFound: [],
        pods: pods.map(podSummary),
        podsNotFound: notFound.map((value) => ({ value })),
      };
    },
  };
}
