/**
 * Persistent volumes (console `/volumes`): where each stateful instance's
 * volume lives, how big, mounted where, and whether its first launch has
 * created it yet. Read-only: the placement loop pins and creates them, the
 * host manager destroys those of deleted instances.
 */
import type { VolumeRecord } from "@peloton/storage";
import { protectedProcedure } from "../auth/authorize.ts";
import { volumeListInput } from "../schemas/volumes.ts";
import { router } from "../trpc.ts";

/** What a client sees of a volume: the record without the cluster's internal agent id. */
export function volumeView(v: VolumeRecord) {
  const { agentId: _agentId, ...rest } = v;
  return rest;
}

export const volumesRouter = router({
  list: protectedProcedure.input(volumeListInput).query(async ({ ctx, input }) => {
    const page = await ctx.gateway.volumeReads.list({
      states: input.states,
      ...(input.host ? { hostname: input.host } : {}),
      ...(input.jobId ? { jobId: input.jobId } : {}),
      text: input.text,
      sort: input.sort,
      order: input.order,
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
    return { items: page.items.map(volumeView), nextCursor: page.nextCursor };
  }),

  /** The hosts and jobs that hold volumes, with how many, for the filters. */
  facets: protectedProcedure.query(({ ctx }) => ctx.gateway.volumeReads.facets()),
});
