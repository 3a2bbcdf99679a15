import { TRPCError } from "@trpc/server";
import { UNAVAILABLE_MESSAGE } from "../errors/database.ts";
import { LEASE_LIVE_MS, readHealth, replicaFromEnv } from "../health.ts";
import { publicProcedure, router } from "../trpc.ts";

export const systemRouter = router({
  /** The acting identity, always shown in the console's header. */
  whoami: publicProcedure.query(({ ctx }) => ctx.actor),
  /**
   * Which replica leads the scheduler: the lease row's holder, and whether it
   * renewed recently (a leader renews every few seconds; a stale row means
   * no replica leads right now).
   */
  leader: publicProcedure.query(async ({ ctx }) => {
    const lease = await ctx.gateway.cluster.lease("scheduler");
    const framework = await ctx.gateway.cluster.framework("peloton");
    if (lease === null)
      return {
        holder: null,
        since: null,
        renewedAt: null,
        live: false,
        frameworkId: framework?.frameworkId ?? null,
        masterUrl: framework?.masterUrl ?? null,
      };
    return {
      holder: lease.holder,
      since: lease.acquiredAt,
      renewedAt: lease.renewedAt,
      live: Date.now() - lease.renewedAt.getTime() < LEASE_LIVE_MS,
      frameworkId: framework?.frameworkId ?? null,
      masterUrl: framework?.masterUrl ?? null,
    };
  }),
  /**
   * This replica's health (health.ts): whether it leads, whether the
   * scheduler runs and the cluster is subscribed. An unreachable database
   * is an error (SERVICE_UNAVAILABLE, 503), as at GET /api/health.
   */
  health: publicProcedure.query(async ({ ctx }) => {
    const report = await readHealth(ctx.gateway, replicaFromEnv());
    if (!report.database.reachable)
      throw new TRPCError({
        code: "SERVICE_UNAVAILABLE",
        message: UNAVAILABLE_MESSAGE,
      });
    return report;
  }),
});
