import type { AppRouter } from "@peloton/api";
import { transformer } from "@peloton/api/transformer";
import { type RawEnvironment, readEnvironment } from "@peloton/engine/environment";
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "undici";

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

/** PELOTON_URL without trailing slashes; throws EnvironmentError (one line) when it is no URL. */
export function apiUrl(env: RawEnvironment = process.env): string {
  return readEnvironment(env, ["PELOTON_URL"]).PELOTON_URL;
}

/**
 * A typed client of the same API the console uses: calls over HTTP, streams
 * (a log as it grows) over server-sent events, as in the browser (Node 20 has
 * no EventSource of its own; undici's is the one Node later adopted).
 */
export function createApiClient(baseUrl: string) {
  const url = `${baseUrl}/api/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url, transformer, EventSource }),
        false: httpLink({ url, transformer }),
      }),
    ],
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;
