/**
 * Personal API tokens (console `/tokens`, `peloton token …`, `peloton
 * login`): a person manages their own, an admin anyone's. The token is made
 * here and shown once in the answer; the identity service stores only its
 * SHA-256 and prefix, with the audit row.
 */
import type { ApiTokenRecord } from "@peloton/storage";
import { actingOf, authorizedProcedure, type SignedInContext } from "../auth/authorize.ts";
import { newApiToken } from "../auth/tokens.ts";
import { tokenCreateInput, tokenListInput, tokenRevokeInput } from "../schemas/identity.ts";
import { router } from "../trpc.ts";
import { unwrap } from "./identity-outcome.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whose tokens: someone an admin names, else the actor's own. */
const ownerOf = (ctx: SignedInContext, input: { userId?: string | undefined }) =>
  input.userId ?? ctx.actor.userId;

const tokenAccess =
  (kind: "token.manage" | "token.list") =>
  (ctx: SignedInContext, input: { userId?: string | undefined; name?: string }) => ({
    request: { kind, ownerUserId: ownerOf(ctx, input) },
    target: { type: "token", id: input.name ?? ownerOf(ctx, input) },
  });

/** What a list shows of a token: never its hash. */
function tokenView(t: ApiTokenRecord) {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
  };
}

export const tokensRouter = router({
  list: authorizedProcedure(tokenListInput, tokenAccess("token.list")).query(
    async ({ ctx, input }) => {
      const tokens = await ctx.gateway.identity.listTokens(ownerOf(ctx, input));
      return tokens.map(tokenView);
    },
  ),

  /** A new token, shown once: `token` is in this answer and nowhere else. */
  create: authorizedProcedure(tokenCreateInput, tokenAccess("token.manage")).mutation(
    async ({ ctx, input }) => {
      const made = newApiToken();
      const stored = unwrap(
        await ctx.scheduler.identity.tokens.create(actingOf(ctx), {
          userId: ownerOf(ctx, input),
          name: input.name,
          tokenHash: made.tokenHash,
          prefix: made.prefix,
          expiresAt:
            input.expiresInDays === undefined
              ? null
              : new Date(Date.now() + input.expiresInDays * DAY_MS),
        }),
      );
      return { token: made.token, id: stored.id, name: stored.name, prefix: stored.prefix };
    },
  ),

  revoke: authorizedProcedure(tokenRevokeInput, tokenAccess("token.manage")).mutation(
    async ({ ctx, input }) => {
      unwrap(
        await ctx.scheduler.identity.tokens.revoke(actingOf(ctx), ownerOf(ctx, input), input.name),
      );
      return { revoked: true as const };
    },
  ),
});
