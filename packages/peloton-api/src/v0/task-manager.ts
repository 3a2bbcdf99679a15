/**
 * peloton.api.v0.task.TaskManager over the tasks router: Get and List read
 * instances as `peloton task get|list` do; Start, Stop and Restart act on
 * instance ranges; Query filters by state and host.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import type { TaskState as OurTaskState } from "@peloton/engine";
import { TASK_STATES } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { TaskManager, TaskState } from "../generated/peloton/api/v0/task/task_pb.ts";
import { instanceRanges, jobId } from "./ids.ts";
import { type TaskListed, taskInfo } from "./task-info.ts";

/** Tasks per page of the router's list (its maximum). */
const PAGE = 1000;

/** Every task of the job that `filter` selects, page after page. */
async function allTasks(
  caller: Caller,
  filter: {
    jobId: string;
    states?: OurTaskState[];
    host?: string;
    instanceFrom?: number;
    instanceTo?: number;
  },
  limit = Number.POSITIVE_INFINITY,
): Promise<TaskListed[]> {
  const tasks: TaskListed[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<Caller["tasks"]["list"]>> = await caller.tasks.list({
      ...filter,
      limit: Math.min(PAGE, limit - tasks.length),
      cursor,
    });
    tasks.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && tasks.length < limit);
  return tasks;
}

function ourStates(states: readonly TaskState[]): OurTaskState[] {
  return states
    .map((s) => TaskState[s])
    .filter((n): n is OurTaskState => (TASK_STATES as readonly string[]).includes(n));
}

const handlers: Implementation<typeof TaskManager> = {
  async get(req, { caller }) {
    const id = jobId(req.jobId);
    const [task, job] = await Promise.all([
      caller.tasks.get({ jobId: id, instance: req.instanceId }),
      caller.jobs.get({ id }),
    ]);
    // `results` is Peloton's every run; this slice sends the current one (README, "Not carried yet").
    const info = taskInfo(task, job.config);
    return { result: info, results: [info] };
  },

  async list(req, { caller }) {
    const id = jobId(req.jobId);
    const job = await caller.jobs.get({ id });
    const range = req.range && req.range.to > req.range.from ? req.range : undefined;
    const tasks = await allTasks(caller, {
      jobId: id,
      ...(range ? { instanceFrom: range.from, instanceTo: range.to - 1 } : {}),
    });
    return {
      result: {
        value: Object.fromEntries(tasks.map((t) => [t.instanceId, taskInfo(t, job.config)])),
      },
    };
  },

  async start(req, { caller }) {
    const ranges = instanceRanges(req.ranges);
    const done = await caller.tasks.start({
      jobId: jobId(req.jobId),
      ...(ranges ? { instances: ranges } : {}),
    });
    return { startedInstanceIds: done.instances };
  },

  async stop(req, { caller }) {
    const ranges = instanceRanges(req.ranges);
    const done = await caller.tasks.stop({
      jobId: jobId(req.jobId),
      ...(ranges ? { instances: ranges } : {}),
    });
    return { stoppedInstanceIds: done.instances };
  },

  async restart(req, { caller }) {
    const ranges = instanceRanges(req.ranges);
    await caller.tasks.restart({
      jobId: jobId(req.jobId),
      ...(ranges ? { instances: ranges } : {}),
    });
    return {};
  },

  /**
   * The instance's events, oldest first, at most `limit` (200 by default) —
   * one run's with `runId` (Peloton's "<job id>-<instance>-<run>", or the number).
   */
  async getPodEvents(req, { caller }) {
    const run = req.runId ? Number(req.runId.split("-").at(-1)) : undefined;
    if (run !== undefined && !Number.isInteger(run))
      throw invalidArgument(
        "runId",
        `a run is "<job id>-<instance>-<run>" or its number (got "${req.runId}")`,
      );
    const page = await caller.tasks.events({
      jobId: jobId(req.jobId),
      instance: req.instanceId,
      ...(run !== undefined ? { run } : {}),
      limit: Math.min(Number(req.limit) || 200, 1000),
    });
    return {
      result: page.items.map((e) => ({
        ...(e.clusterTaskId ? { taskId: { value: e.clusterTaskId } } : {}),
        actualState: e.state,
        timestamp: e.at.toISOString(),
        hostname: e.hostname ?? "",
        message: e.message ?? "",
        reason: e.reason ?? "",
      })),
    };
  },

  async query(req, { caller }) {
    const spec = req.spec;
    if (spec?.names.length)
      throw unimplemented("spec.names: querying tasks by name is not supported yet");
    if ((spec?.hosts.length ?? 0) > 1)
      throw unimplemented("spec.hosts: one host at a time is supported");
    if (spec?.pagination?.offset)
      throw unimplemented("spec.pagination.offset: this scheduler pages with cursors; use limit");
    const id = jobId(req.jobId);
    const job = await caller.jobs.get({ id });
    const limit = spec?.pagination?.limit || Number.POSITIVE_INFINITY;
    const host = spec?.hosts[0];
    const tasks = await allTasks(
      caller,
      { jobId: id, states: ourStates(spec?.taskStates ?? []), ...(host ? { host } : {}) },
      limit,
    );
    return {
      records: tasks.map((t) => taskInfo(t, job.config)),
      pagination: { limit: spec?.pagination?.limit ?? 0, offset: 0 },
    };
  },
};

const MISSING: Record<string, string> = {
  BrowseSandbox:
    "TaskManager.BrowseSandbox: sandboxes are not browsed through this API; read a run's stdout and stderr with `peloton task logs`",
  Refresh: "TaskManager.Refresh: this scheduler keeps no task cache to reload",
  GetCache: "TaskManager.GetCache: this scheduler keeps no task cache; use Get",
  DeletePodEvents: "TaskManager.DeletePodEvents: this scheduler keeps every run's events",
};

export const taskManager = serve(
  TaskManager,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `TaskManager.${m.name} is not served yet`,
);
