/**
 * The API over HTTP with real identity, for client tests (the CLI's login,
 * tokens and whoami) until the console's own resolver serves them: a
 * test-only stand-in for better-auth's `POST /api/auth/sign-in/username`
 * (the stored scrypt hash checked, a session row and its cookie) and a
 * resolver of each request's actor from `Authorization: Bearer` (the token's
 * SHA-256 in api_tokens, live, its user enabled) or that session cookie.
 * Real about tokens: a revoked one is refused at the next request.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Actor, type Context, verifyPassword } from "@peloton/api";
import { createTrpcEdge } from "@peloton/api/http";
import type { Role } from "@peloton/engine";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { type ServedApi, send, toRequest } from "./http-server.ts";

export const TEST_SESSION_COOKIE = "peloton_test_session";

interface UserRow {
  id: string;
  login: string;
  display_name: string;
  role: Role;
  host_maintenance: boolean;
}

async function actorOf(user: UserRow, via: Actor["via"]): Promise<Actor> {
  const teams = await directSql<{ name: string }>(
    `SELECT t.name FROM teams t JOIN team_memberships m ON m.team_id = t.id
     WHERE m.user_id = $1 ORDER BY t.name`,
    [user.id],
  );
  return {
    userId: user.id,
    login: user.login,
    displayName: user.display_name,
    role: user.role,
    teams: teams.map((t) => t.name),
    hostMaintenance: user.host_maintenance,
    via,
  };
}

/** The request's actor: a live Bearer token of an enabled user, else the test session cookie. */
export async function resolveTestActor(req: Request): Promise<Actor | null> {
  const bearer = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
  if (bearer) {
    const hash = createHash("sha256").update(bearer).digest("hex");
    const [row] = await directSql<UserRow & { token_id: string; token_name: string }>(
      `SELECT u.id, u.login, u.display_name, u.role, u.host_maintenance,
              t.id AS token_id, t.name AS token_name
       FROM api_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = $1 AND t.revoked_at IS NULL
         AND (t.expires_at IS NULL OR t.expires_at > now()) AND u.disabled_at IS NULL`,
      [hash],
    );
    if (!row) return null;
    await directSql("UPDATE api_tokens SET last_used_at = now() WHERE id = $1", [row.token_id]);
    return actorOf(row, { kind: "token", tokenId: row.token_id, tokenName: row.token_name });
  }
  const cookie = new RegExp(`${TEST_SESSION_COOKIE}=([^;]+)`).exec(
    req.headers.get("cookie") ?? "",
  )?.[1];
  if (!cookie) return null;
  const [row] = await directSql<UserRow>(
    `SELECT u.id, u.login, u.display_name, u.role, u.host_maintenance
     FROM auth_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token = $1 AND s.expires_at > now() AND u.disabled_at IS NULL`,
    [cookie],
  );
  return row ? actorOf(row, { kind: "session" }) : null;
}

/** The stand-in for better-auth's username sign-in: 401 on a wrong user or password. */
async function signIn(req: Request): Promise<Response> {
  const body = (await req.json()) as { username?: string; password?: string };
  const [row] = await directSql<{ id: string; password: string }>(
    `SELECT u.id, a.password FROM users u
     JOIN auth_accounts a ON a.user_id = u.id AND a.provider_id = 'credential'
     WHERE u.login = $1 AND u.disabled_at IS NULL`,
    [body.username ?? ""],
  );
  if (!row || !(await verifyPassword(row.password, body.password ?? "")))
    return Response.json({ message: "Invalid username or password" }, { status: 401 });
  const token = randomBytes(24).toString("base64url");
  await directSql(
    `INSERT INTO auth_sessions (id, token, user_id, expires_at)
     VALUES ($1, $2, $3, now() + interval '1 hour')`,
    [randomBytes(12).toString("hex"), token, row.id],
  );
  return Response.json(
    { token },
    { headers: { "set-cookie": `${TEST_SESSION_COOKIE}=${token}; Path=/; HttpOnly` } },
  );
}

/** Serves the API with each request's actor resolved as above (`base` gives the rest). */
export async function serveApiWithIdentity(base: () => Omit<Context, "actor">): Promise<ServedApi> {
  let origin = "http://127.0.0.1";
  const server = createServer((req, res) => {
    const request = toRequest(req, origin);
    const answer = async (): Promise<Response> => {
      if (new URL(request.url).pathname === "/api/auth/sign-in/username") return signIn(request);
      const actor = await resolveTestActor(request);
      return createTrpcEdge({ createContext: () => ({ ...base(), actor }) })(request);
    };
    answer().then(
      (response) => send(response, res),
      (err: unknown) => {
        console.error("test server:", err);
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
