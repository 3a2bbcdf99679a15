/**
 * The audit log (console `/audit` and the overview's activity, `peloton audit
 * list`): every accepted mutation with who, how (via), when, what, before and
 * after, and every attempt the policy refused with its reason.
 * Read-only: rows are written by the mutations themselves, in their
 * transactions.
 */

import { protectedProcedure } from "../auth/authorize.ts";
import { auditListInput } from "../schemas/audit.ts";
import { router } from "../trpc.ts";

export const auditRouter = router({
  /** A page, newest first; pass `nextCursor` back for the next one. */
  list: protectedProcedure.input(auditListInput).query(({ ctx, input }) =>
    ctx.gateway.audit.list({
      actor: input.actor,
      action: input.action,
      targetType: input.targetType,
      target: input.target,
      since: input.since,
      until: input.until,
      outcome: input.outcome,
      limit: input.limit,
      cursor: input.cursor ?? null,
    }),
  ),

  /** The actors, actions and target types the filters can offer. */
  facets: protectedProcedure.query(({ ctx }) => ctx.gateway.audit.facets()),
});
