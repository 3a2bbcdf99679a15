import { publicProcedure, router } from "../trpc.ts";

/** A lease not renewed for this long has no live holder (leaders renew every 2 s). */
const LEASE_STALE_MS = 15_000;

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
      live: Date.now() - lease.renewedAt.getTime() < LEASE_STALE_MS,
      frameworkId: framework?.frameworkId ?? null,
      masterUrl: framework?.masterUrl ?? null,
    };
  }),
  health: publicProcedure.query(async ({ ctx }) => {
    await ctx.gateway.ping();
    return { ok: true as const };
  }),
});
