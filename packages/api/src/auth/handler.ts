/**
 * The console's /api/auth/* route: better-auth's handler, with two additions
 * of ours in front of it:
 * - GET /api/auth/providers → `{ password: true, sso: { name } | null }`, what
 *   the sign-in page offers;
 * - POST /api/auth/sign-in/username refused with 429 once a login has
 *   LOGIN_FAILURE_LIMIT failures (login-limit.ts); its failures and successes
 *   are counted from better-auth's answer.
 */
import { AUTH_BASE_PATH, type PelotonAuth } from "./better-auth.ts";
import type { LoginFailureLimiter } from "./login-limit.ts";
import type { AuthSettings } from "./settings.ts";

export interface AuthProviders {
  password: true;
  sso: { name: string } | null;
}

export function authProviders(settings: Pick<AuthSettings, "oidc">): AuthProviders {
  return { password: true, sso: settings.oidc ? { name: settings.oidc.name } : null };
}

/** A sign-in body is a login and a password: anything larger is not one. */
const MAX_SIGN_IN_BODY_BYTES = 16 * 1024;

function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

export interface AuthHandlerDeps {
  auth: PelotonAuth;
  settings: Pick<AuthSettings, "oidc">;
  limiter: LoginFailureLimiter;
}

export function createAuthHandler(deps: AuthHandlerDeps): (req: Request) => Promise<Response> {
  const { auth, limiter } = deps;

  async function signInWithLimit(req: Request): Promise<Response> {
    const text = await req.text();
    if (text.length > MAX_SIGN_IN_BODY_BYTES)
      return jsonAnswer(413, {
        code: "BODY_TOO_LARGE",
        message: "a sign-in request is at most 16 KiB",
      });
    let login: string | null = null;
    try {
      const body = JSON.parse(text) as { username?: unknown };
      if (typeof body.username === "string") login = body.username.trim().toLowerCase();
    } catch {
      // better-auth answers a malformed body itself
    }
    if (login) {
      const wait = limiter.retryAfterSeconds(login);
      if (wait > 0)
        return jsonAnswer(
          429,
          {
            code: "TOO_MANY_FAILED_SIGN_INS",
            message: `too many failed sign-ins for "${login}": try again in ${Math.ceil(wait / 60)} min`,
          },
          { "retry-after": String(wait) },
        );
    }
    const answer = await auth.handler(
      new Request(req.url, { method: req.method, headers: req.headers, body: text }),
    );
    if (login) {
      if (answer.status === 401) limiter.recordFailure(login);
      else if (answer.ok) limiter.recordSuccess(login);
    }
    return answer;
  }

  return async (req) => {
    const path = new URL(req.url).pathname.slice(AUTH_BASE_PATH.length);
    if (req.method === "GET" && path === "/providers")
      return jsonAnswer(200, authProviders(deps.settings));
    if (req.method === "POST" && path === "/sign-in/username") return signInWithLimit(req);
    return auth.handler(req);
  };
}
