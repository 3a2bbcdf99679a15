/**
 * Tasks (the instances table of `/jobs/<id>`, `/jobs/<id>/tasks/<instance>`;
 * `peloton task …`): a job's instances page by page with server-side
 * filters and sort, one instance with every run (pod history), its event
 * timeline, and its logs.
 */
import { taskConfigFor } from "@peloton/engine";
import { authorizedProcedure, protectedProcedure } from "../auth/authorize.ts";
import {
  taskActionInput,
  taskEventsInput,
  taskListInput,
  taskLogsFollowInput,
  taskLogsInput,
  taskRefInput,
} from "../schemas/tasks.ts";
import { router } from "../trpc.ts";
import { taskAccess } from "./access.ts";
import { act } from "./jobs.handler.ts";
import {
  followLog,
  jobOf,
  type LogStreamMessage,
  readLog,
  taskListQuery,
  taskNotFound,
  taskRuntimeView,
  taskView,
} from "./tasks.handler.ts";
import { volumeView } from "./volumes.ts";

export const tasksRouter = router({
  list: protectedProcedure.input(taskListInput).query(async ({ ctx, input }) => {
    const [job, page] = await Promise.all([
      jobOf(ctx, input.jobId),
      ctx.gateway.taskReads.list(taskListQuery(input)),
    ]);
    return {
      items: page.items.map((t) => taskView(t, job.config, job.name)),
      nextCursor: page.nextCursor,
    };
  }),

  /**
   * The page `list` answers, of each instance's runtime only (state, goal,
   * host, ports, times, why, health): for callers that show no more, such as
   * Peloton's TaskManager.List, it reads 14 columns instead of 35. The job's
   * config it read (for health) comes with the page: a TaskInfo carries it,
   * and its caller need not read the job a second time.
   */
  runtimes: protectedProcedure.input(taskListInput).query(async ({ ctx, input }) => {
    const [job, page] = await Promise.all([
      jobOf(ctx, input.jobId),
      ctx.gateway.taskReads.runtimes(taskListQuery(input)),
    ]);
    return {
      items: page.items.map((t) => taskRuntimeView(t, job.config)),
      nextCursor: page.nextCursor,
      jobConfig: job.config,
    };
  }),

  get: protectedProcedure.input(taskRefInput).query(async ({ ctx, input }) => {
    const [job, task, runs, volume] = await Promise.all([
      jobOf(ctx, input.jobId),
      ctx.gateway.taskReads.get(input.jobId, input.instance),
      ctx.gateway.taskHistory.runs(input.jobId, input.instance),
      ctx.gateway.volumeReads.forInstance(input.jobId, input.instance),
    ]);
    if (task === null) throw taskNotFound(input.jobId, input.instance);
    return {
      ...taskView(task, job.config, job.name),
      job: { id: job.id, name: job.name, type: job.type, poolPath: job.poolPath },
      /** The instance's task config: the job's default with this instance's overrides. */
      config: taskConfigFor(job.config, input.instance),
      runs: runs.map(({ agentId: _agentId, ...run }) => run),
      /** A stateful instance's persistent volume, once its first placement pinned it. */
      volume: volume ? volumeView(volume) : null,
    };
  }),

  events: protectedProcedure.input(taskEventsInput).query(async ({ ctx, input }) => {
    const page = await ctx.gateway.taskHistory.events({
      jobId: input.jobId,
      instanceId: input.instance,
      ...(input.run !== undefined ? { runId: input.run } : {}),
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
    return {
      items: page.items.map(({ agentId: _agentId, ...e }) => e),
      nextCursor: page.nextCursor,
    };
  }),

  /** A page of a run's stdout or stderr (the tail by default), read from its sandbox. */
  logs: protectedProcedure.input(taskLogsInput).query(async ({ ctx, input }) => {
    const { directory: _directory, ...chunk } = await readLog(ctx, {
      jobId: input.jobId,
      instance: input.instance,
      run: input.run,
      file: input.file,
      offset: input.offset,
      length: input.length,
    });
    return chunk;
  }),

  /** A run's log as it grows (server-sent events), until the run has ended. */
  logsFollow: protectedProcedure.input(taskLogsFollowInput).subscription(async function* ({
    ctx,
    input,
    signal,
  }): AsyncGenerator<LogStreamMessage> {
    yield* followLog(
      ctx,
      {
        jobId: input.jobId,
        instance: input.instance,
        run: input.run,
        file: input.file,
        offset: input.offset,
      },
      signal,
    );
  }),

  /** Kill these instances (all when none are named); stopping every instance stops the job (Peloton). */
  stop: authorizedProcedure(taskActionInput, (ctx, input) =>
    taskAccess(ctx, input.jobId, "stop"),
  ).mutation(({ ctx, input }) =>
    act(ctx, input.jobId, { kind: "stop", instances: input.instances ?? "all" }),
  ),

  /** Start stopped instances again, each as a new run. */
  start: authorizedProcedure(taskActionInput, (ctx, input) =>
    taskAccess(ctx, input.jobId, "start"),
  ).mutation(({ ctx, input }) =>
    act(ctx, input.jobId, { kind: "start", instances: input.instances ?? "all" }),
  ),

  /** Replace these instances' runs with new ones. */
  restart: authorizedProcedure(taskActionInput, (ctx, input) =>
    taskAccess(ctx, input.jobId, "restart"),
  ).mutation(({ ctx, input }) =>
    act(ctx, input.jobId, { kind: "restart", instances: input.instances ?? "all" }),
  ),
});
