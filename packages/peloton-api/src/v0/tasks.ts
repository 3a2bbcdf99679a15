/**
 * Peloton's v0 task operations over the tasks router, once: TaskManager
 * and its newer spelling task.svc.TaskService map their requests onto
 * these. Reads are `peloton task get|list`; Start, Stop and Restart act
 * on instance ranges; Query filters by state and host.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TaskState as OurTaskState } from "@peloton/engine";
import { TASK_STATES } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { collect, type Page } from "../calls/pages.ts";
import { readJob } from "../calls/read-job.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import type { JobID } from "../generated/peloton/api/v0/peloton_pb.ts";
import type { PaginationSpec } from "../generated/peloton/api/v0/query/query_pb.ts";
import {
  type InstanceRange,
  type QuerySpec,
  type TaskInfoSchema,
  TaskState,
} from "../generated/peloton/api/v0/task/task_pb.ts";
import { instanceRanges, jobId } from "./ids.ts";
import { type RouterSort, routerSort, TASK_SORTS } from "./order-by.ts";
import { jobIdMessage, type TaskRuntime, taskInfo } from "./task-info.ts";

type TaskInfo = MessageInitShape<typeof TaskInfoSchema>;

/** Tasks per page of the router's list (its maximum). */
const PAGE = 1000;

type TaskFilter = {
  jobId: string;
  states?: OurTaskState[];
  host?: string;
  instanceFrom?: number;
  instanceTo?: number;
} & Partial<RouterSort<(typeof TASK_SORTS)[keyof typeof TASK_SORTS]>>;

/**
 * Every task of the job that `filter` selects (the first `limit`), page
 * after page, as `read` answers a page: the router's `tasks.list`, or
 * `tasks.runtimes` where only what a TaskInfo shows beside its config is
 * needed.
 */
async function everyTask<T>(
  read: (input: TaskFilter & { limit: number; cursor: string | null }) => Promise<Page<T>>,
  filter: TaskFilter,
  limit: number,
): Promise<T[]> {
  return collect((cursor, wanted) => read({ ...filter, limit: Math.min(PAGE, wanted), cursor }), {
    limit,
  });
}

/**
 * Every runtime `filter` selects (the first `limit`) and the job's config,
 * which the router reads beside each page: a TaskInfo carries both, and
 * the job is not read a second time for it.
 */
async function runtimesWithConfig(
  caller: Caller,
  filter: TaskFilter,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ tasks: TaskRuntime[]; config: unknown }> {
  let config: unknown;
  const tasks = await everyTask(
    async (input) => {
      const page = await caller.tasks.runtimes(input);
      config ??= page.jobConfig;
      return page;
    },
    filter,
    limit,
  );
  return { tasks, config };
}

export function allTasks(caller: Caller, filter: TaskFilter, limit = Number.POSITIVE_INFINITY) {
  return everyTask(caller.tasks.list, filter, limit);
}

function ourStates(states: readonly TaskState[]): OurTaskState[] {
  return states
    .map((s) => TaskState[s])
    .filter((n): n is OurTaskState => (TASK_STATES as readonly string[]).includes(n));
}

/** One instance; `results` is Peloton's every run, here the current one (README, "Not carried yet"). */
export async function getTask(
  caller: Caller,
  job: JobID | undefined,
  instance: number,
): Promise<{ result: TaskInfo; results: TaskInfo[] }> {
  const id = jobId(job);
  const [task, detail] = await Promise.all([
    caller.tasks.get({ jobId: id, instance }),
    readJob(caller, id),
  ]);
  const info = taskInfo(task, detail.config);
  return { result: info, results: [info] };
}

/** The job's instances in `range` (every one when empty), by instance id. */
export async function listTasks(
  caller: Caller,
  job: JobID | undefined,
  range: InstanceRange | undefined,
): Promise<Record<number, TaskInfo>> {
  const id = jobId(job);
  const within = range && range.to > range.from ? range : undefined;
  const { tasks, config } = await runtimesWithConfig(caller, {
    jobId: id,
    ...(within ? { instanceFrom: within.from, instanceTo: within.to - 1 } : {}),
  });
  const jobMessage = jobIdMessage(id);
  return Object.fromEntries(tasks.map((t) => [t.instanceId, taskInfo(t, config, jobMessage)]));
}

/** Starts, stops or restarts the instances in `ranges` (every one when none); the ones acted on. */
export async function actOnTasks(
  caller: Caller,
  kind: "start" | "stop" | "restart",
  job: JobID | undefined,
  ranges: readonly InstanceRange[],
): Promise<number[]> {
  const instances = instanceRanges(ranges);
  const done = await caller.tasks[kind]({
    jobId: jobId(job),
    ...(instances ? { instances } : {}),
  });
  return done.instances;
}

/**
 * The instance's events, oldest first, at most `limit` (200 by default) —
 * one run's with `runId` (Peloton's "<job id>-<instance>-<run>", or the number).
 */
export async function podEvents(
  caller: Caller,
  req: { jobId?: JobID | undefined; instanceId: number; runId?: string; limit: bigint },
) {
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
  return page.items.map((e) => ({
    ...(e.clusterTaskId ? { taskId: { value: e.clusterTaskId } } : {}),
    actualState: e.state,
    timestamp: e.at.toISOString(),
    hostname: e.hostname ?? "",
    message: e.message ?? "",
    reason: e.reason ?? "",
  }));
}

/**
 * The job's tasks `spec` selects. `pagination` is the request's own when
 * it has one (TaskService), else the spec's (TaskManager).
 */
export async function queryTasks(
  caller: Caller,
  req: {
    jobId?: JobID | undefined;
    spec?: QuerySpec | undefined;
    pagination?: PaginationSpec | undefined;
  },
): Promise<{ records: TaskInfo[]; pagination: { limit: number; offset: number } }> {
  const spec = req.spec;
  const pagination = req.pagination ?? spec?.pagination;
  if (spec?.names.length)
    throw unimplemented("spec.names: querying tasks by name is not supported yet");
  if ((spec?.hosts.length ?? 0) > 1)
    throw unimplemented("spec.hosts: one host at a time is supported");
  if (pagination?.offset)
    throw unimplemented("pagination.offset: this scheduler pages with cursors; use limit");
  const id = jobId(req.jobId);
  const limit = pagination?.limit || Number.POSITIVE_INFINITY;
  const host = spec?.hosts[0];
  const sorted = routerSort(req, TASK_SORTS);
  const { tasks, config } = await runtimesWithConfig(
    caller,
    {
      jobId: id,
      states: ourStates(spec?.taskStates ?? []),
      ...(host ? { host } : {}),
      ...sorted,
    },
    limit,
  );
  return {
    records: tasks.map((t) => taskInfo(t, config)),
    pagination: { limit: pagination?.limit ?? 0, offset: 0 },
  };
}
