/**
 * Signing in for the browser tests (docs/identity.md): the suite's server
 * starts with a known admin password (serve.ts) and a fixed auth secret (so
 * the extra console of console-server.ts accepts the same session cookie);
 * global-setup.ts signs in once as admin through better-auth, keeps the
 * browser state every spec starts from, and an admin API token for the
 * specs' own API calls and CLI runs (Bearer requests need no Origin).
 */
import type { AppRouter } from "@peloton/api";
import { transformer } from "@peloton/api/transformer";
import { type APIRequestContext, request } from "@playwright/test";
import { createTRPCClient, httpLink } from "@trpc/client";
import { readFixture } from "./fixture.ts";

export { ADMIN_STATE_FILE, AUTH_ENV, E2E_ADMIN_LOGIN, E2E_ADMIN_PASSWORD } from "./auth-env.ts";

/** Signs in through better-auth's endpoint; the context then holds the session cookie. */
export async function signIn(
  baseUrl: string,
  username: string,
  password: string,
): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL: baseUrl });
  const res = await context.post("/api/auth/sign-in/username", {
    data: { username, password },
    headers: { origin: baseUrl },
  });
  if (!res.ok())
    throw new Error(`signing in as ${username} failed: ${res.status()} ${await res.text()}`);
  return context;
}

/** A tRPC mutation as the signed-in person of `context` (cookie + Origin, as a browser sends). */
export async function mutateAs<T>(
  context: APIRequestContext,
  baseUrl: string,
  procedure: string,
  input: unknown,
): Promise<T> {
  const res = await context.post(`/api/trpc/${procedure}`, {
    data: { json: input },
    headers: { origin: baseUrl },
  });
  const text = await res.text();
  if (!res.ok()) throw new Error(`${procedure}: ${res.status()} ${text}`);
  return (JSON.parse(text) as { result: { data: { json: T } } }).result.data.json;
}

/** A typed API client that acts with `token` (Bearer), as the CLI does. */
export function apiClientWithToken(baseUrl: string, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/api/trpc`,
        transformer,
        headers: { authorization: `Bearer ${token}` },
      }),
    ],
  });
}

/** The admin's API client, with the token global-setup.ts made. */
export function adminApi(baseUrl: string) {
  return apiClientWithToken(baseUrl, readFixture().adminToken);
}

/** The environment for a CLI run as the admin (packages/cli reads PELOTON_TOKEN). */
export function cliEnv(baseUrl: string | undefined): NodeJS.ProcessEnv {
  return { ...process.env, PELOTON_URL: baseUrl, PELOTON_TOKEN: readFixture().adminToken };
}
