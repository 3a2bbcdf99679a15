/**
 * Who a request comes from (docs/identity.md, "The actor"): an
 * `Authorization: Bearer pt_…` token first, else better-auth's session
 * cookie (its signature checked here, session-cookie.ts); one query either
 * way. Anything invalid, expired, revoked or belonging to a disabled user is
 * no actor (null); the procedures then answer 401 "sign in first".
 */
import { ROLES, type Role } from "@peloton/engine";
import type { Db } from "@peloton/storage";
import { processDb } from "../server/gateway.ts";
import type { Actor } from "./actor.ts";
import { type PelotonAuth, SESSION_REFRESH_SECONDS, SESSION_SECONDS } from "./better-auth.ts";
import { processAuth } from "./process.ts";
import { cookieValue, verifiedSessionToken } from "./session-cookie.ts";
import { API_TOKEN_PATTERN, bearerToken, hashApiToken } from "./tokens.ts";

/** A token's last use is written at most this often (not on every request). */
export const TOKEN_USE_RESOLUTION_MS = 60_000;

const asRole = (value: unknown): Role =>
  (ROLES as readonly unknown[]).includes(value) ? (value as Role) : "VIEWER";

/** The user's columns both queries read, and the Actor they make. */
interface UserColumns {
  user_id: string;
  login: string;
  display_name: string;
  role: string;
  host_maintenance: boolean;
  teams: string[];
}

function actorOf(row: UserColumns, via: Actor["via"]): Actor {
  return {
    userId: row.user_id,
    login: row.login,
    displayName: row.display_name,
    role: asRole(row.role),
    teams: row.teams,
    hostMaintenance: row.host_maintenance,
    via,
  };
}

interface TokenActorRow extends UserColumns {
  token_id: string;
  token_name: string;
  last_used_at: Date | null;
}

async function tokenActor(db: Db, token: string, now: Date): Promise<Actor | null> {
  if (!API_TOKEN_PATTERN.test(token)) return null;
  // One query: the token, its user and the user's teams; refused tokens and disabled users match nothing.
  const rows = await db.$queryRaw<TokenActorRow[]>`
    SELECT t.id AS token_id, t.name AS token_name, t.last_used_at,
           u.id AS user_id, u.login, u.display_name, u.role::text AS role, u.host_maintenance,
           ARRAY(SELECT tm.name FROM team_memberships m JOIN teams tm ON tm.id = m.team_id
                 WHERE m.user_id = u.id ORDER BY tm.name) AS teams
      FROM api_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = ${hashApiToken(token)}
       AND t.revoked_at IS NULL
       AND (t.expires_at IS NULL OR t.expires_at > ${now})
       AND u.disabled_at IS NULL`;
  const row = rows[0];
  if (!row) return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= TOKEN_USE_RESOLUTION_MS) {
    await db.apiToken.update({ where: { id: row.token_id }, data: { lastUsedAt: now } });
  }
  return actorOf(row, { kind: "token", tokenId: row.token_id, tokenName: row.token_name });
}

interface SessionActorRow extends UserColumns {
  session_id: string;
  expires_at: Date;
}

async function sessionActor(
  db: Db,
  auth: PelotonAuth,
  cookies: string | null,
  now: Date,
): Promise<Actor | null> {
  if (!cookies) return null;
  const context = await auth.$context;
  const signed = cookieValue(cookies, context.authCookies.sessionToken.name);
  const token = signed && verifiedSessionToken(signed, context.secret);
  if (!token) return null;
  // One query, as for tokens: the session, its user and the user's teams; a disabled user matches nothing.
  const rows = await db.$queryRaw<SessionActorRow[]>`
    SELECT s.id AS session_id, s.expires_at,
           u.id AS user_id, u.login, u.display_name, u.role::text AS role, u.host_maintenance,
           ARRAY(SELECT tm.name FROM team_memberships m JOIN teams tm ON tm.id = m.team_id
                 WHERE m.user_id = u.id ORDER BY tm.name) AS teams
      FROM auth_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token = ${token} AND s.expires_at > ${now} AND u.disabled_at IS NULL`;
  const row = rows[0];
  if (!row) return null;
  // better-auth's rule (updateAge): a session used a day after it was last extended runs 7 more days.
  if (
    row.expires_at.getTime() - now.getTime() <
    (SESSION_SECONDS - SESSION_REFRESH_SECONDS) * 1000
  ) {
    await db.authSession.update({
      where: { id: row.session_id },
      data: { expiresAt: new Date(now.getTime() + SESSION_SECONDS * 1000) },
    });
  }
  return actorOf(row, { kind: "session" });
}

export interface ActorResolverDeps {
  db: Db;
  auth: PelotonAuth;
  now?: () => Date;
}

/** `(req) => actor`, over an explicit database and better-auth instance (tests build their own). */
export function createActorResolver(
  deps: ActorResolverDeps,
): (req: Request) => Promise<Actor | null> {
  const now = deps.now ?? (() => new Date());
  return async (req) => {
    const token = bearerToken(req);
    // A request that presents a token is judged by it alone: a bad token is no actor, even with a cookie.
    if (token !== null) return tokenActor(deps.db, token, now());
    return sessionActor(deps.db, deps.auth, req.headers.get("cookie"), now());
  };
}

const holder = globalThis as unknown as {
  __pelotonActorResolver?: (req: Request) => Promise<Actor | null>;
};

/**
 * Who `req` comes from, in this process: its Bearer token, else its session
 * cookie; null when neither is valid. A request with neither is nobody at
 * once, without opening the database.
 */
export async function resolveActor(req: Request): Promise<Actor | null> {
  if (bearerToken(req) === null && !req.headers.get("cookie")) return null;
  holder.__pelotonActorResolver ??= createActorResolver({ db: processDb(), auth: processAuth() });
  return holder.__pelotonActorResolver(req);
}

/**
 * Who `req`'s `Authorization: Bearer pt_…` token belongs to, the cookie
 * never read (Peloton's gRPC and YARPC API: packages/peloton-api); null
 * without a valid token.
 */
export async function resolveTokenActor(req: Request): Promise<Actor | null> {
  const token = bearerToken(req);
  return token === null ? null : tokenActor(processDb(), token, new Date());
}
