/**
 * Who am I (console user menu, `peloton whoami`): the actor the request was
 * resolved to, and how it came (a session, or which token).
 */
import { channelLabel } from "../auth/actor.ts";
import { protectedProcedure } from "../auth/authorize.ts";
import { router } from "../trpc.ts";

export const meRouter = router({
  get: protectedProcedure.query(({ ctx }) => ({
    userId: ctx.actor.userId,
    login: ctx.actor.login,
    displayName: ctx.actor.displayName,
    role: ctx.actor.role,
    teams: [...ctx.actor.teams],
    hostMaintenance: ctx.actor.hostMaintenance,
    /** "session" or "token:<name>". */
    via: channelLabel(ctx.actor.via),
  })),
});
