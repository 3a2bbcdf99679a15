/**
 * Jobs (console `/jobs`, `/jobs/<id>`; `peloton job …`): submit Peloton's
 * job YAML, list and read jobs, and act on them. The API only writes intent
 * (a new job, a goal state, an instance count, a restart); the leader's job
 * manager, resource manager and placement loops make it happen, and every
 * change is announced for the live views.
 */
import { isResolvableWaitingReason } from "@peloton/engine";
import { z } from "zod";
import { authorizedProcedure, protectedProcedure } from "../auth/authorize.ts";
import {
  jobCreateInput,
  jobEventsInput,
  jobGetInput,
  jobIdSchema,
  jobListInput,
  jobRefInput,
  jobRollingInput,
  jobScaleInput,
} from "../schemas/jobs.ts";
import { jobConfigVersionInput } from "../schemas/updates.ts";
import { router } from "../trpc.ts";
import { jobAccess } from "./access.ts";
import {
  act,
  actRolling,
  configVersionNotFound,
  createFromYaml,
  jobNotFound,
  submissionPool,
  submissionPoolNotFound,
  withFirstWaiting,
} from "./jobs.handler.ts";

export const jobsRouter = router({
  /** Operators of a team that may submit to the pool (the request's, else the file's respoolId). */
  create: authorizedProcedure(jobCreateInput, async (ctx, input) => {
    const path = submissionPool(input);
    const pool = await ctx.gateway.pools.facts(path);
    if (pool === null) throw submissionPoolNotFound(path);
    return {
      request: {
        kind: "job.create",
        pool: { path: pool.path, owningTeam: pool.owningTeam, ldapGroups: pool.ldapGroups },
      },
      target: { type: "pool", id: pool.path },
    };
  }).mutation(({ ctx, input }) => createFromYaml(ctx, input)),

  get: protectedProcedure.input(jobGetInput).query(async ({ ctx, input }) => {
    const [job, waiting] = await Promise.all([
      ctx.gateway.jobs.getDetail(input.id),
      input.waiting ? ctx.gateway.taskReads.waitingReasons(input.id) : [],
    ]);
    if (job === null) throw jobNotFound(input.id);
    // resolvable: false when only the hosts or pools changing can end the wait
    // (admission's CAN_NEVER_FIT, placement's CAN_NEVER_PLACE).
    return {
      ...job,
      waiting: waiting.map((w) => ({ ...w, resolvable: isResolvableWaitingReason(w.reason) })),
    };
  }),

  list: protectedProcedure.input(jobListInput).query(async ({ ctx, input }) => {
    const pool = input.pool ? await ctx.gateway.pools.getByPath(input.pool) : undefined;
    if (pool === null) return { items: [], nextCursor: null };
    const page = await ctx.gateway.jobs.list({
      states: input.states,
      types: input.types,
      ...(pool ? { poolId: pool.id } : {}),
      ...(input.owner ? { owner: input.owner } : {}),
      text: input.text,
      labels: input.labels,
      sort: input.sort,
      order: input.order,
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
    return { ...page, items: await withFirstWaiting(ctx, page.items, input.waiting) };
  }),

  /** Every configuration the job had, newest first (updates add one each). */
  configVersions: protectedProcedure
    .input(z.object({ id: jobIdSchema }))
    .query(async ({ ctx, input }) => {
      if ((await ctx.gateway.jobs.get(input.id)) === null) throw jobNotFound(input.id);
      return ctx.gateway.configVersions.list(input.id);
    }),

  /** One configuration version of the job: its YAML as written and as parsed. */
  configVersion: protectedProcedure.input(jobConfigVersionInput).query(async ({ ctx, input }) => {
    const v = await ctx.gateway.configVersions.get(input.id, input.version);
    if (v === null) {
      if ((await ctx.gateway.jobs.get(input.id)) === null) throw jobNotFound(input.id);
      throw configVersionNotFound(input.id, input.version);
    }
    return {
      version: v.version,
      yaml: v.configYaml,
      config: v.config,
      createdAt: v.createdAt,
      createdBy: v.createdBy,
    };
  }),

  /** Every instance's task events, newest first, a page at a time. */
  events: protectedProcedure.input(jobEventsInput).query(async ({ ctx, input }) => {
    const page = await ctx.gateway.taskHistory.jobEvents({
      jobId: input.id,
      ...(input.instance !== undefined ? { instanceId: input.instance } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
    return {
      items: page.items.map(({ agentId: _agentId, ...e }) => e),
      nextCursor: page.nextCursor,
    };
  }),

  /** Kill every instance; the job ends KILLED. With a batch size, a rolling stop (an update). */
  stop: authorizedProcedure(jobRollingInput, (ctx, input) =>
    jobAccess(ctx, input.id, "stop"),
  ).mutation(({ ctx, input }) => actRolling(ctx, input, "stop")),

  /** Run a stopped job again: ended instances get a new run (a batch job's succeeded ones stay done). */
  start: authorizedProcedure(jobRollingInput, (ctx, input) =>
    jobAccess(ctx, input.id, "start"),
  ).mutation(({ ctx, input }) => actRolling(ctx, input, "start")),

  /** Replace every instance's run with a new one; with a batch size, a rolling restart (an update). */
  restart: authorizedProcedure(jobRollingInput, (ctx, input) =>
    jobAccess(ctx, input.id, "restart"),
  ).mutation(({ ctx, input }) => actRolling(ctx, input, "restart")),

  /** Kill every instance, then mark the job and its tasks DELETED (their history stays). */
  delete: authorizedProcedure(jobRefInput, (ctx, input) =>
    jobAccess(ctx, input.id, "delete"),
  ).mutation(({ ctx, input }) => act(ctx, input.id, { kind: "delete" }, input.version)),

  /** Change the instance count: new instances are queued, removed ones killed and deleted. */
  scale: authorizedProcedure(jobScaleInput, (ctx, input) =>
    jobAccess(ctx, input.id, "scale"),
  ).mutation(({ ctx, input }) =>
    act(ctx, input.id, { kind: "scale", instanceCount: input.instanceCount }, input.version),
  ),
});
