import type { AppRouter } from "@peloton/api";
import { transformer } from "@peloton/api/transformer";
import { type RawEnvironment, readEnvironment } from "@peloton/engine/environment";
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { Agent, type Dispatcher, EventSource } from "undici";
import { readCredentials, tokenFor } from "./credentials.ts";

/**
 * undici warns once that its EventSource is experimental; on a command line
 * that warning would land in the middle of a followed log's stderr.
 */
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const options = rest[0] as { code?: string } | string | undefined;
  const code = typeof options === "object" ? options?.code : rest[1];
  if (code === "UNDICI-ES") return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;

/**
 * PELOTON_URL (without trailing slashes), else the server `peloton login`
 * signed in to, else the default; throws EnvironmentError (one line) when
 * PELOTON_URL is no URL.
 */
export function apiUrl(env: RawEnvironment = process.env): string {
  if (!env.PELOTON_URL) {
    const stored = readCredentials(env as NodeJS.ProcessEnv)?.server;
    if (stored) return stored.replace(/\/+$/, "");
  }
  return readEnvironment(env, ["PELOTON_URL"]).PELOTON_URL;
}

/** How a request proves who sends it: a token, or (only `peloton login`) a session cookie. */
export type ClientAuth =
  | { kind: "token"; token: string }
  | { kind: "session"; cookie: string; origin: string }
  | { kind: "none" };

/** The auth of ordinary commands: PELOTON_TOKEN or the stored token for this server. */
export function storedAuth(baseUrl: string, env: NodeJS.ProcessEnv = process.env): ClientAuth {
  const token = tokenFor(baseUrl, env);
  return token ? { kind: "token", token } : { kind: "none" };
}

function authHeaders(auth: ClientAuth): Record<string, string> {
  if (auth.kind === "token") return { authorization: `Bearer ${auth.token}` };
  // Cookie-authenticated mutations must carry the console's Origin (CSRF check).
  if (auth.kind === "session") return { cookie: auth.cookie, origin: auth.origin };
  return {};
}

/**
 * A dispatcher that adds `extra` to every request: undici's EventSource has
 * no headers option, and a followed log needs the Bearer token too.
 */
function withHeaders(extra: Record<string, string>): Dispatcher {
  return new Agent().compose((dispatch) => (opts, handler) => {
    const given = opts.headers;
    const headers = Array.isArray(given)
      ? [...given, ...Object.entries(extra).flat()]
      : { ...(given as Record<string, string> | null | undefined), ...extra };
    return dispatch({ ...opts, headers }, handler);
  });
}

/**
 * A typed client of the same API the console uses: calls over HTTP, streams
 * (a log as it grows) over server-sent events, as in the browser (Node 20 has
 * no EventSource of its own; undici's is the one Node later adopted).
 */
export function createApiClient(baseUrl: string, auth: ClientAuth = { kind: "none" }) {
  const url = `${baseUrl}/api/trpc`;
  const headers = authHeaders(auth);
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url,
          transformer,
          EventSource,
          eventSourceOptions: () => ({ node: { dispatcher: withHeaders(headers) } }),
        }),
        false: httpLink({ url, transformer, headers }),
      }),
    ],
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;
