/**
 * The tasks router's edge: rows from storage with what the job's config
 * says about each instance (its name), and "not found" worded once.
 */
import {
  type HealthState,
  initialHealthOf,
  type JobConfig,
  type TaskConfig,
  taskConfigFor,
} from "@peloton/engine";
import { describeTaskLogRefusal, type TaskLogChunk, type TaskLogRequest } from "@peloton/scheduler";
import type { TaskListQuery, TaskRecord, TaskRuntimeRecord } from "@peloton/storage";
import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { SignedInContext } from "../auth/authorize.ts";
import type { Context } from "../context.ts";
import { IssuesError } from "../issues.ts";
import type { taskListInput } from "../schemas/tasks.ts";
import { jobNotFound } from "./jobs.handler.ts";

/** A task as clients see it: the row without the internal agent id, with its health and name. */
export type TaskView = Omit<TaskRecord, "agentId" | "health"> & {
  health: HealthState;
  name: string;
};

/**
 * A task as clients see it: the row, its name from the config, no internal
 * agent id. Written field by field on purpose: a copy of the 35-field row
 * made with rest and spread and then given more fields leaves V8 building
 * each object the slow way (~8 µs a task, a tenth of listing 1,000 tasks
 * through Peloton's API); a literal of known fields is ~50 times cheaper.
 * The type makes a new TaskRecord field a compile error here until added.
 */
export function taskView(task: TaskRecord, config: JobConfig, jobName: string): TaskView {
  const taskConfig = taskConfigFor(config, task.instanceId);
  return {
    id: task.id,
    jobId: task.jobId,
    instanceId: task.instanceId,
    runId: task.runId,
    desiredRun: task.desiredRun,
    clusterTaskId: task.clusterTaskId,
    state: task.state,
    goalState: task.goalState,
    hostname: task.hostname,
    ports: task.ports,
    reason: task.reason,
    message: task.message,
    failureCount: task.failureCount,
    cpu: task.cpu,
    memMb: task.memMb,
    diskMb: task.diskMb,
    gpu: task.gpu,
    priority: task.priority,
    preemptible: task.preemptible,
    revocable: task.revocable,
    controller: task.controller,
    pinnedHost: task.pinnedHost,
    previousHost: task.previousHost,
    notBefore: task.notBefore,
    queuedAt: task.queuedAt,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    startedAt: task.startedAt,
    finishedAt: task.finishedAt,
    health: shownHealth(task, taskConfig),
    healthChangedAt: task.healthChangedAt,
    healthMessage: task.healthMessage,
    configVersion: task.configVersion,
    desiredConfigVersion: task.desiredConfigVersion,
    name: taskConfig.name ?? jobName,
  };
}

/**
 * A run that has not reached RUNNING has no health of its own yet: its
 * initial one (DISABLED without an enabled check), as Peloton shows it.
 */
function shownHealth(task: Pick<TaskRecord, "health">, taskConfig: TaskConfig): HealthState {
  return task.health ?? initialHealthOf(taskConfig);
}

/** An instance's runtime as tasks.runtimes answers it: its health shown as taskView shows it. */
export function taskRuntimeView(task: TaskRuntimeRecord, config: JobConfig) {
  return { ...task, health: shownHealth(task, taskConfigFor(config, task.instanceId)) };
}

/** The gateway's query for the page `input` asks for (tasks.list and tasks.runtimes). */
export function taskListQuery(input: z.output<typeof taskListInput>): TaskListQuery {
  return {
    jobId: input.jobId,
    states: input.states,
    ...(input.host ? { hostname: input.host } : {}),
    ...(input.instanceFrom !== undefined ? { instanceFrom: input.instanceFrom } : {}),
    ...(input.instanceTo !== undefined ? { instanceTo: input.instanceTo } : {}),
    sort: input.sort,
    order: input.order,
    limit: input.limit,
    cursor: input.cursor ?? null,
  };
}

/** The job's name and parsed config, or NOT_FOUND. */
export async function jobOf(ctx: Context, jobId: string) {
  const job = await ctx.gateway.jobs.getDetail(jobId);
  if (job === null) throw jobNotFound(jobId);
  return job as typeof job & { config: JobConfig };
}

export function taskNotFound(jobId: string, instance: number): TRPCError {
  const message = `job ${jobId} has no instance ${instance}`;
  return new TRPCError({
    code: "NOT_FOUND",
    message,
    cause: new IssuesError([{ field: "instance", code: "TASK_NOT_FOUND", message }]),
  });
}

/** One read of a run's log, or the refusal worded as a tRPC error. */
export async function readLog(ctx: Context, req: TaskLogRequest): Promise<TaskLogChunk> {
  const result = await ctx.scheduler.logs.taskLog(req);
  if (result.ok) return result.chunk;
  const message = describeTaskLogRefusal(result.refusal, req);
  const notFound =
    result.refusal.code === "TASK_NOT_FOUND" || result.refusal.code === "RUN_NOT_FOUND";
  return Promise.reject(
    new TRPCError({
      code: notFound ? "NOT_FOUND" : "PRECONDITION_FAILED",
      message,
      cause: new IssuesError([
        { field: notFound ? "instance" : null, code: result.refusal.code, message },
      ]),
    }),
  );
}

/** What a log stream carries: new output, the end of a finished run's file, or why it cannot be read (yet). */
export type LogStreamMessage =
  | { kind: "chunk"; data: string; offset: number; nextOffset: number; run: number }
  | { kind: "end"; run: number }
  | { kind: "waiting"; message: string };

const FOLLOW_POLL_MS = 500;
const FOLLOW_CHUNK = 65_536;

/**
 * Follows a run's log: what is there (the tail when `offset` is -1), then
 * whatever is appended, polled twice a second from the agent, until the run
 * has ended and its file is read to the end, or the client goes away.
 */
export async function* followLog(
  ctx: SignedInContext,
  req: Omit<TaskLogRequest, "length" | "directory">,
  signal: AbortSignal | undefined,
): AsyncGenerator<LogStreamMessage> {
  let offset = req.offset;
  let directory: string | undefined;
  let lastWaiting = "";
  while (!signal?.aborted) {
    const result = await ctx.scheduler.logs.taskLog({
      ...req,
      offset,
      directory,
      length: FOLLOW_CHUNK,
    });
    if (!result.ok) {
      const message = describeTaskLogRefusal(result.refusal, req);
      if (result.refusal.code === "TASK_NOT_FOUND" || result.refusal.code === "RUN_NOT_FOUND") {
        yield { kind: "waiting", message };
        return;
      }
      if (message !== lastWaiting) yield { kind: "waiting", message };
      lastWaiting = message;
    } else {
      const c = result.chunk;
      directory = c.directory;
      offset = c.nextOffset;
      if (c.data.length > 0)
        yield {
          kind: "chunk",
          data: c.data,
          offset: c.offset,
          nextOffset: c.nextOffset,
          run: c.run,
        };
      // A full chunk means more is waiting: read on at once.
      if (Buffer.byteLength(c.data) >= FOLLOW_CHUNK) continue;
      if (c.finished) {
        yield { kind: "end", run: c.run };
        return;
      }
    }
    await sleep(FOLLOW_POLL_MS, signal);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
