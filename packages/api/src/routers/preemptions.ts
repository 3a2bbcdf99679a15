/**
 * Preemptions (console `/preemptions`, the pool and task pages,
 * `peloton preemption ...`): the history the preemptor records, one row per
 * victim, with the rule and the numbers that decided it and whether the
 * victim came back. Read-only: preemptions are made by the resource manager.
 */
import { TRPCError } from "@trpc/server";
import { protectedProcedure } from "../auth/authorize.ts";
import { IssuesError } from "../issues.ts";
import { preemptionCounts } from "../preemptions/counts.ts";
import { storageFilters } from "../preemptions/filters.ts";
import {
  preemptionCountsInput,
  preemptionGetInput,
  preemptionListInput,
} from "../schemas/preemptions.ts";
import { router } from "../trpc.ts";

export const preemptionsRouter = router({
  /** A page, newest first; pass `nextCursor` back for the next one. */
  list: protectedProcedure.input(preemptionListInput).query(({ ctx, input }) =>
    ctx.gateway.preemptions.list({
      ...storageFilters(input),
      limit: input.limit,
      cursor: input.cursor ?? null,
    }),
  ),

  get: protectedProcedure.input(preemptionGetInput).query(async ({ ctx, input }) => {
    const p = await ctx.gateway.preemptions.get(input.id);
    if (p === null) {
      const message = `preemption ${input.id} does not exist`;
      throw new TRPCError({
        code: "NOT_FOUND",
        message,
        cause: new IssuesError([{ field: "id", code: "PREEMPTION_NOT_FOUND", message }]),
      });
    }
    return p;
  }),

  /** Counts per pool over time (out of, into and within each pool) for the same filters. */
  countsByPool: protectedProcedure
    .input(preemptionCountsInput)
    .query(({ ctx, input }) => preemptionCounts(ctx.gateway, storageFilters(input), new Date())),
});
