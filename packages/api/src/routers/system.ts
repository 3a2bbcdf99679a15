import { schedulerStatus } from "@peloton/scheduler";
import { protectedProcedure } from "../auth/authorize.ts";
import { readHealth, replicaFromEnv } from "../health.ts";
import { publicProcedure, router } from "../trpc.ts";

export const systemRouter = router({
  /** The acting identity, always shown in the console's header. */
  whoami: protectedProcedure.query(({ ctx }) => ctx.actor),
  /**
   * Which replica leads the scheduler: the lease row's holder, and whether it
   * renewed recently (a leader renews every few seconds; a stale row means
   * no replica leads right now).
   */
  leader: protectedProcedure.query(async ({ ctx }) => {
    const { lease, running, cluster } = await schedulerStatus(ctx.gateway);
    return {
      holder: lease?.holder ?? null,
      since: lease?.acquiredAt ?? null,
      renewedAt: lease?.renewedAt ?? null,
      live: running,
      frameworkId: cluster?.id ?? null,
      masterUrl: cluster?.url ?? null,
    };
  }),
  /**
   * This replica's health (health.ts): whether it leads, whether the
   * scheduler runs and the cluster is subscribed. An unreachable database
   * is an error (SERVICE_UNAVAILABLE, 503), as at GET /api/health.
   */
  health: publicProcedure.query(({ ctx }) =>
    readHealth(ctx.gateway, replicaFromEnv(), Date.now, "throw"),
  ),
});
