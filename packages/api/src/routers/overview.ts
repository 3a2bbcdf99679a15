import { protectedProcedure } from "../auth/authorize.ts";
import { router } from "../trpc.ts";

/** The cluster at a glance (console `/`). */
export const overviewRouter = router({
  summary: protectedProcedure.query(async ({ ctx }) => {
    const [summary, pools] = await Promise.all([
      ctx.gateway.overview.clusterSummary(),
      ctx.gateway.pools.listAll(),
    ]);
    return {
      ...summary,
      // Pools below the root, in tree order, with their configured resources.
      poolList: pools
        .filter((p) => p.parentId !== null)
        .map((p) => ({
          path: p.path,
          name: p.name,
          depth: p.path.split("/").length - 1,
          owningTeam: p.owningTeam,
          resources: p.resources,
        })),
      at: new Date(),
    };
  }),
});
