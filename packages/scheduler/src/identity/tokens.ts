/**
 * Personal API tokens, owned by the identity service: created with the hash
 * and prefix the API computed (the token itself is shown once to its owner
 * and never stored or logged), revoked by name. Names are unique among a
 * person's live tokens, so a revoked name can be used again.
 */
import type { ApiTokenRecord, StorageGateway } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";
import { IdentityRefusal, type IdentityResult, refusingOn } from "./outcome.ts";

export interface TokenCreation {
  /** The owner (the actor, or the person an admin acts for). */
  userId: string;
  name: string;
  /** SHA-256 hex of the token. */
  tokenHash: string;
  /** Its first characters, to recognise it in lists. */
  prefix: string;
  expiresAt: Date | null;
}

/** The audit row's target: "<owner login>/<token name>". */
async function targetOf(
  gateway: Pick<StorageGateway, "identity">,
  userId: string,
  name: string,
): Promise<string> {
  const owner = await gateway.identity.userById(userId);
  if (!owner)
    throw new IdentityRefusal({ kind: "not_found", field: "userId", message: "no such user" });
  return `${owner.login}/${name}`;
}

export function createToken(
  gateway: StorageGateway,
  acting: Acting,
  t: TokenCreation,
): Promise<IdentityResult<ApiTokenRecord>> {
  const duplicate = {
    kind: "duplicate" as const,
    field: "name",
    message: `a token "${t.name}" already exists: revoke it first or choose another name`,
  };
  return refusingOn(duplicate, () =>
    gateway.transaction(async (tx) => {
      const target = await targetOf(tx, t.userId, t.name);
      await tx.identity.lockUser(t.userId);
      if (await tx.identity.liveTokenByName(t.userId, t.name)) throw new IdentityRefusal(duplicate);
      const token = await tx.identity.createToken(t);
      await tx.audit.record({
        actor: acting.login,
        via: acting.via,
        action: "token.create",
        targetType: "token",
        targetId: target,
        after: { name: t.name, prefix: t.prefix, expiresAt: t.expiresAt?.toISOString() ?? null },
      });
      return token;
    }),
  );
}

export function revokeToken(
  gateway: StorageGateway,
  acting: Acting,
  userId: string,
  name: string,
  now: Date = new Date(),
): Promise<IdentityResult<ApiTokenRecord>> {
  return refusingOn(
    { kind: "conflict", field: "name", message: `token "${name}" changed meanwhile` },
    () =>
      gateway.transaction(async (tx) => {
        const target = await targetOf(tx, userId, name);
        const token = await tx.identity.revokeToken(userId, name, now);
        if (!token)
          throw new IdentityRefusal({
            kind: "not_found",
            field: "name",
            message: `no live token "${name}"`,
          });
        await tx.audit.record({
          actor: acting.login,
          via: acting.via,
          action: "token.revoke",
          targetType: "token",
          targetId: target,
          before: { name, prefix: token.prefix },
        });
        return token;
      }),
  );
}
