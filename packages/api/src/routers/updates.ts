/**
 * Updates (docs/updates.md; console job page's Updates tab; `peloton update
 * …`): start one with a new job config, read them and their history, pause,
 * resume, abort or roll one back. The API writes the update's intent through
 * the scheduler's services; the leader's workflow loop moves the instances.
 */

import type { UpdateAction, UpdateResult } from "@peloton/scheduler";
import type { JobUpdateRecord } from "@peloton/storage";
import {
  actingOf,
  authorizedProcedure,
  protectedProcedure,
  type SignedInContext,
} from "../auth/authorize.ts";
import {
  type UpdateView,
  updateCreateInput,
  updateDiffInput,
  updateEventsInput,
  updateListInput,
  updateRefInput,
} from "../schemas/updates.ts";
import { router } from "../trpc.ts";
import { jobUpdateAccess, updateAccess } from "./access.ts";
import { decodeJobYaml, jobNotFound } from "./jobs.handler.ts";
import { updateFailureError, updateNotFound, updateView } from "./updates.handler.ts";

async function viewOf(ctx: SignedInContext, u: JobUpdateRecord): Promise<UpdateView> {
  const job = await ctx.gateway.jobs.get(u.jobId);
  return updateView(u, job?.name ?? "");
}

async function answer(ctx: SignedInContext, result: UpdateResult): Promise<UpdateView> {
  if (!result.ok) throw updateFailureError(result.failure);
  return viewOf(ctx, result.update);
}

function act(action: UpdateAction) {
  return authorizedProcedure(updateRefInput, (ctx, input) =>
    updateAccess(ctx, input.id, action),
  ).mutation(async ({ ctx, input }) =>
    answer(ctx, await ctx.scheduler.updates.act(input.id, action, actingOf(ctx))),
  );
}

export const updatesRouter = router({
  /** Replace a job's config in rolling batches (Peloton's `update create`). */
  create: authorizedProcedure(updateCreateInput, (ctx, input) =>
    jobUpdateAccess(ctx, input.jobId, "create"),
  ).mutation(async ({ ctx, input }) => {
    const decoded = decodeJobYaml(input);
    const result = await ctx.scheduler.updates.create({
      jobId: input.jobId,
      kind: "UPDATE",
      config: { value: decoded.value, yaml: input.yaml },
      options: input.options,
      configVersion: input.configVersion,
      override: input.override,
      acting: actingOf(ctx),
    });
    if (!result.ok) throw updateFailureError(result.failure);
    const u = result.update;
    return {
      updateId: u.id,
      jobId: u.jobId,
      fromVersion: u.fromConfigVersion,
      toVersion: u.toConfigVersion,
      state: u.state,
      /** The update an override (-o) aborted for this one; null when none was active. */
      overriddenUpdateId: result.overridden ?? null,
    };
  }),

  /**
   * Which instances an update to this config would add, restart, remove and
   * leave running (moved to the new version without a restart), by the same
   * checks and sets as `create`; nothing is written.
   */
  diff: protectedProcedure.input(updateDiffInput).query(async ({ ctx, input }) => {
    const decoded = decodeJobYaml(input);
    const result = await ctx.scheduler.updates.diff({
      jobId: input.jobId,
      config: { value: decoded.value, yaml: input.yaml },
      configVersion: input.configVersion,
    });
    if (!result.ok) throw updateFailureError(result.failure);
    const { added, updated, removed, unchanged } = result.sets;
    return {
      jobId: input.jobId,
      fromVersion: result.fromVersion,
      added,
      updated,
      removed,
      unchanged,
    };
  }),

  get: protectedProcedure.input(updateRefInput).query(async ({ ctx, input }) => {
    const u = await ctx.gateway.updates.get(input.id);
    if (u === null) throw updateNotFound(input.id);
    return viewOf(ctx, u);
  }),

  /** A job's updates, newest first. */
  list: protectedProcedure.input(updateListInput).query(async ({ ctx, input }) => {
    const job = await ctx.gateway.jobs.get(input.jobId);
    if (job === null) throw jobNotFound(input.jobId);
    const page = await ctx.gateway.updates.listForJob({
      jobId: input.jobId,
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
    return { items: page.items.map((u) => updateView(u, job.name)), nextCursor: page.nextCursor };
  }),

  /** An update's history (state changes and batches), newest first. */
  events: protectedProcedure.input(updateEventsInput).query(async ({ ctx, input }) => {
    if ((await ctx.gateway.updates.get(input.id)) === null) throw updateNotFound(input.id);
    return ctx.gateway.updates.events({
      updateId: input.id,
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
  }),

  pause: act("pause"),
  resume: act("resume"),
  abort: act("abort"),
  rollback: act("rollback"),
});
