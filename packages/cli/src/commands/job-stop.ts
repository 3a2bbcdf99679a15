/**
 * `peloton job stop`: one job by id, or every active job (INITIALIZED,
 * PENDING, RUNNING) of an owner or with labels, each stopped on its own and
 * reported, as Peloton's JobStopAction does. The owner only picks the jobs;
 * the API decides each stop by the caller's rights on the job's pool
 * (docs/identity.md), so a stop the policy refuses is reported as refused,
 * with its reason, and the others go ahead.
 */
import { isTerminalJobState, type JobState } from "@peloton/api/schemas";
import { TRPCClientError } from "@trpc/client";
import type { ApiClient } from "../api-client.ts";
import { apiUrl } from "../api-client.ts";
import { CliError, describeError } from "../errors.ts";
import { JOB_QUERY_HEADER, jobQueryRow } from "../jobs/job-info.ts";
import { formatTable } from "../output.ts";

export interface StopRequest {
  id: string | undefined;
  owner: string | undefined;
  labels: { key: string; value: string }[];
  confirm: () => Promise<boolean>;
}

/** The jobs Peloton's `job stop` looks for when no id is given. */
const ACTIVE = ["INITIALIZED", "PENDING", "RUNNING"] as const satisfies readonly JobState[];

export async function stopJobs(
  api: ApiClient,
  print: (s: string) => void,
  req: StopRequest,
): Promise<void> {
  let ids: string[];
  if (req.id) {
    const job = await api.jobs.get.query({ id: req.id });
    const labelled = req.labels.every((l) =>
      job.labels.some((j) => j.key === l.key && j.value === l.value),
    );
    if ((req.owner && job.owner !== req.owner) || !labelled) {
      print("No matching job found");
      return;
    }
    if (isTerminalJobState(job.state)) {
      print(`Job is in terminal state: ${job.state}`);
      return;
    }
    ids = [job.id];
  } else {
    if (!req.owner && req.labels.length === 0)
      throw new CliError("name a job, or pick jobs with --owner or --labels");
    const page = await api.jobs.list.query({
      states: [...ACTIVE],
      ...(req.owner ? { owner: req.owner } : {}),
      labels: req.labels,
      limit: 500,
    });
    if (page.items.length === 0) {
      print("No matching job(s) found");
      return;
    }
    print(formatTable(JOB_QUERY_HEADER, page.items.map(jobQueryRow)));
    if (!(await req.confirm())) return;
    ids = page.items.map((j) => j.id);
  }

  const stopped: string[] = [];
  const refused: string[] = [];
  const failed: string[] = [];
  for (const id of ids) {
    try {
      const r = await api.jobs.stop.mutate({ id });
      print(`Successfully signalled ${r.instances.length} tasks for stopping`);
      stopped.push(id);
    } catch (err) {
      if (isRefusal(err)) {
        print(`Refused stopping job ${id}: ${describeError(err, apiUrl())}`);
        refused.push(id);
      } else {
        print(`Error stopping job ${id}: ${describeError(err, apiUrl())}`);
        failed.push(id);
      }
    }
  }
  print(`Stopping jobs: [${stopped.join(" ")}]`);
  if (refused.length > 0) print(`Refused jobs: [${refused.join(" ")}]`);
  if (failed.length > 0) throw new CliError(`Error stopping jobs: [${failed.join(" ")}]`);
  if (refused.length > 0)
    throw new CliError(`not allowed to stop ${refused.length} of the ${ids.length} jobs`);
}

/** The policy said no (403): the job stays as it is, and the reason is the API's sentence. */
function isRefusal(err: unknown): boolean {
  return (
    err instanceof TRPCClientError &&
    (err.data as { code?: string } | undefined)?.code === "FORBIDDEN"
  );
}
