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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const auditRouter = router({
  /** A page, newest first; pass `nextCursor` back for the next one. */
  list: protectedProcedure.input(auditListInput).query(async ({ ctx, input }) => {
    const page = await ctx.gateway.audit.list({
      actor: input.actor,
      action: input.action,
      targetType: input.targetType,
      target: input.target,
      since: input.since,
      until: input.until,
      outcome: input.outcome,
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
    // Jobs read by name, not by UUID (one indexed read for the page's jobs).
    const jobIds = [
      ...new Set(page.items.filter((e) => e.targetType === "job").map((e) => e.targetId)),
    ].filter((id) => UUID.test(id));
    const names = await ctx.gateway.searchReads.jobNames(jobIds);
    return {
      ...page,
      items: page.items.map((e) => ({
        ...e,
        /** The target's name when it has one besides its id (a job's name); else null. */
        targetName: e.targetType === "job" ? (names.get(e.targetId) ?? null) : null,
      })),
    };
  }),

  /** The actors, actions and target types the filters can offer. */
  facets: protectedProcedure.query(({ ctx }) => ctx.gateway.audit.facets()),
});
