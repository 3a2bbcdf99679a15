import { protectedProcedure } from "../auth/authorize.ts";
import { attentionInput, poolConcerns } from "../schemas/attention.ts";
import { router } from "../trpc.ts";
import { respool } from "./pools.handler.ts";

/** The cluster at a glance (console `/`). */
export const overviewRouter = router({
  summary: protectedProcedure.query(async ({ ctx }) => {
    const [summary, tree] = await Promise.all([
      ctx.gateway.overview.clusterSummary(),
      respool(ctx).tree(),
    ]);
    return {
      ...summary,
      // Pools below the root, in tree order, with their settings and usage
      // (entitlement, allocation, demand) per kind.
      poolList: tree.pools
        .filter((p) => p.parentId !== null)
        .map((p) => ({
          path: p.path,
          name: p.name,
          depth: p.depth,
          owningTeam: p.owningTeam,
          children: p.children,
          resources: p.resources,
        })),
      at: new Date(),
    };
  }),

  /**
   * What needs someone now, each with where it is fixed: hosts not taking
   * work, crash-looping services, pools over entitlement or blocked, jobs
   * pending too long, updates that failed. Every list is bounded.
   */
  attention: protectedProcedure.input(attentionInput).query(async ({ ctx, input }) => {
    const now = new Date();
    const cutoff = new Date(now.getTime() - input.pendingForSeconds * 1000);
    const a = ctx.gateway.attention;
    const [hosts, crashLooping, stuckPending, failedUpdates, tree] = await Promise.all([
      a.hostsNotUp(input.limit),
      a.crashLoopingJobs(input.limit),
      a.stuckPendingJobs(cutoff, input.limit),
      a.failedUpdates(input.limit),
      respool(ctx).tree(),
    ]);
    const pools = tree.pools
      .filter((p) => p.parentId !== null)
      .map((p) => ({ path: p.path, concerns: poolConcerns(p.resources, p.children === 0) }))
      .filter((p) => p.concerns.length > 0)
      .slice(0, input.limit);
    return {
      hosts,
      crashLooping,
      stuckPending,
      pendingForSeconds: input.pendingForSeconds,
      failedUpdates,
      pools,
      at: now,
    };
  }),
});
