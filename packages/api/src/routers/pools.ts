import { actingOf, authorizedProcedure, protectedProcedure } from "../auth/authorize.ts";
import {
  poolsCreateInput,
  poolsDeleteInput,
  poolsGetInput,
  poolsHistoryInput,
  poolsPreviewInput,
  poolsSeriesInput,
  poolsUpdateInput,
  SERIES_RANGE_MS,
} from "../schemas/pools.ts";
import { router } from "../trpc.ts";
import { parentFacts, poolFacts } from "./access.ts";
import { mutationOutput, notFound, respool, ruleIssues } from "./pools.handler.ts";

/**
 * Resource pools (console `/pools`, CLI `respool`): the tree with its
 * entitlements, one pool with its explanation, changes with a dry run first,
 * and who changed what.
 */
export const poolsRouter = router({
  tree: protectedProcedure.query(({ ctx }) => respool(ctx).tree()),

  get: protectedProcedure.input(poolsGetInput).query(async ({ ctx, input }) => {
    const pool = await respool(ctx).get(input.path);
    if (!pool) throw notFound(input.path);
    return pool;
  }),

  /** Team leads of the parent's owning team (and admins) create pools under it. */
  create: authorizedProcedure(poolsCreateInput, async (ctx, input) => ({
    request: { kind: "pool.create", parent: await parentFacts(ctx, input.path) },
    target: { type: "pool", id: input.path },
  })).mutation(async ({ ctx, input }) =>
    mutationOutput(await respool(ctx).create({ ...input, acting: actingOf(ctx) })),
  ),

  /** Team leads of the owning team edit it; only admins give it to a team they are not in. */
  update: authorizedProcedure(poolsUpdateInput, async (ctx, input) => ({
    request: {
      kind: "pool.update",
      pool: await poolFacts(ctx, input.path),
      newOwningTeam: input.config.owningTeam,
    },
    target: { type: "pool", id: input.path },
  })).mutation(async ({ ctx, input }) =>
    mutationOutput(await respool(ctx).update({ ...input, acting: actingOf(ctx) })),
  ),

  delete: authorizedProcedure(poolsDeleteInput, async (ctx, input) => ({
    request: { kind: "pool.delete", pool: await poolFacts(ctx, input.path) },
    target: { type: "pool", id: input.path },
  })).mutation(async ({ ctx, input }) =>
    mutationOutput(await respool(ctx).delete({ ...input, acting: actingOf(ctx) })),
  ),

  /** A dry run: the rules the change breaks, or whose entitlement moves and by how much. */
  preview: protectedProcedure.input(poolsPreviewInput).query(async ({ ctx, input }) => {
    const preview = await respool(ctx).preview(input);
    return {
      valid: preview.errors.length === 0,
      issues: ruleIssues(preview.errors),
      moves: preview.moves,
    };
  }),

  history: protectedProcedure
    .input(poolsHistoryInput)
    .query(({ ctx, input }) =>
      respool(ctx).history(input.path, { cursor: input.cursor ?? null, limit: input.limit }),
    ),

  entitlementSeries: protectedProcedure.input(poolsSeriesInput).query(async ({ ctx, input }) => {
    const series = await respool(ctx).series(input.path, SERIES_RANGE_MS[input.range]);
    if (!series) throw notFound(input.path);
    return { range: input.range, ...series };
  }),
});
