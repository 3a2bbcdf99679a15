import { protectedProcedure } from "../auth/authorize.ts";
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

  create: protectedProcedure
    .input(poolsCreateInput)
    .mutation(async ({ ctx, input }) =>
      mutationOutput(await respool(ctx).create({ ...input, actor: ctx.actor.login })),
    ),

  update: protectedProcedure
    .input(poolsUpdateInput)
    .mutation(async ({ ctx, input }) =>
      mutationOutput(await respool(ctx).update({ ...input, actor: ctx.actor.login })),
    ),

  delete: protectedProcedure
    .input(poolsDeleteInput)
    .mutation(async ({ ctx, input }) =>
      mutationOutput(await respool(ctx).delete({ ...input, actor: ctx.actor.login })),
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
