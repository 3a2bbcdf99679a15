/**
 * The API's HTTP edge, bounded: the tRPC fetch handler behind four checks
 * that cost O(1) or one pass over the bytes, each refusal a tRPC error
 * envelope with a sentence and the request id:
 *
 *   request ── batch of more than MAX_BATCH_CALLS calls? ── 400
 *      │    ── a cookie-authenticated mutation from another site? ── 403
 *      │    ── body over MAX_REQUEST_BYTES (header, or counted while read)? ── 413
 *      ▼
 *   tRPC (answers.ts maps database faults: 4xx, outage 503)
 *      │    ── not answered within REQUEST_TIME_BUDGET_MS? ── 504, and the
 *      ▼       procedures' signal is aborted (streams are exempt)
 *   response (x-request-id names the request; 500s and mapped faults are
 *             logged under it with their cause)
 */
import { randomUUID } from "node:crypto";
import {
  formatCount,
  MAX_BATCH_CALLS,
  MAX_REQUEST_BYTES,
  REQUEST_TIME_BUDGET_MS,
} from "@peloton/engine";
import type { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { Context } from "../context.ts";
import { originalOf } from "../errors/answers.ts";
import { appRouter } from "../root.ts";
import { transformer } from "../transformer.ts";
import { serverLog } from "./log.ts";

export interface EdgeOptions {
  /**
   * The context of one request (without its id, which the edge adds); async
   * because the actor is looked up per request (auth/resolve.ts).
   */
  createContext: (req: Request) => Omit<Context, "requestId"> | Promise<Omit<Context, "requestId">>;
  /**
   * A sentence when `req` must be refused as a cross-site request (403;
   * auth/csrf.ts), else null. Checked before the body is read.
   */
  refuseCrossSite?: (req: Request) => string | null;
  endpoint?: string;
  /** Overrides for tests; defaults are the limits' constants. */
  maxBodyBytes?: number;
  maxBatchCalls?: number;
  timeBudgetMs?: number;
  /** Where causes are logged (default: the server's pino logger, at error). */
  log?: (line: string, cause?: unknown) => void;
}

type Refusal = {
  status: number;
  code: keyof typeof TRPC_ERROR_CODES_BY_KEY;
  issueCode: string;
  message: string;
};

/** A tRPC error envelope, as the client's links read it (one per call of a batch). */
function refusalResponse(refusal: Refusal, requestId: string, paths: string[], batch: boolean) {
  const envelope = (path: string | undefined) => ({
    error: transformer.serialize({
      message: refusal.message,
      code: TRPC_ERROR_CODES_BY_KEY[refusal.code],
      data: {
        code: refusal.code,
        httpStatus: refusal.status,
        ...(path ? { path } : {}),
        issues: [{ field: null, code: refusal.issueCode, message: refusal.message }],
        requestId,
      },
    }),
  });
  const body = batch ? paths.map(envelope) : envelope(paths[0]);
  return new Response(JSON.stringify(body), {
    status: refusal.status,
    headers: {
      "content-type": "application/json",
      "x-request-id": requestId,
      // A body refused half-read leaves the connection mid-request: it cannot be reused.
      ...(refusal.status === 413 ? { connection: "close" } : {}),
    },
  });
}

/** The body, read until it passes `max` bytes (then null: the rest is never read). */
async function readBounded(req: Request, max: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

const isSubscription = (path: string) =>
  (appRouter._def.procedures as Record<string, { _def?: { type?: string } } | undefined>)[path]
    ?._def?.type === "subscription";

/** The console's /api/trpc handler (and the tests' server): `(Request) => Response`. */
export function createTrpcEdge(options: EdgeOptions): (req: Request) => Promise<Response> {
  const endpoint = options.endpoint ?? "/api/trpc";
  const maxBody = options.maxBodyBytes ?? MAX_REQUEST_BYTES;
  const maxBatch = options.maxBatchCalls ?? MAX_BATCH_CALLS;
  const budget = options.timeBudgetMs ?? REQUEST_TIME_BUDGET_MS;
  const log =
    options.log ??
    ((line, cause) => serverLog().error(cause === undefined ? {} : { err: cause }, line));

  return async (req) => {
    const started = performance.now();
    const answer = await handle(req);
    // How long the server spent on it (not the streams': they last as long as they are followed).
    if (!answer.headers.get("content-type")?.includes("event-stream"))
      answer.headers.set("server-timing", `total;dur=${(performance.now() - started).toFixed(1)}`);
    return answer;
  };

  async function handle(req: Request): Promise<Response> {
    const requestId = randomUUID();
    const url = new URL(req.url);
    const batch = url.searchParams.get("batch") === "1";
    const rawPath = url.pathname.slice(url.pathname.indexOf(endpoint) + endpoint.length + 1);
    let pathPart: string;
    try {
      pathPart = decodeURIComponent(rawPath);
    } catch {
      pathPart = rawPath; // malformed %-escapes: tRPC answers "no such procedure"
    }
    const paths = batch ? pathPart.split(",") : [pathPart];
    const refuse = (r: Refusal) => refusalResponse(r, requestId, paths, batch);

    if (paths.length > maxBatch)
      return refuse({
        status: 400,
        code: "BAD_REQUEST",
        issueCode: "BATCH_TOO_LARGE",
        message: `a batch has at most ${formatCount(maxBatch)} calls (got ${formatCount(paths.length)})`,
      });

    const crossSite = options.refuseCrossSite?.(req) ?? null;
    if (crossSite)
      return refuse({
        status: 403,
        code: "FORBIDDEN",
        issueCode: "CROSS_SITE",
        message: crossSite,
      });

    let body: Uint8Array | null = null;
    if (req.method !== "GET" && req.method !== "HEAD") {
      const tooLarge = (got: string) =>
        refuse({
          status: 413,
          code: "PAYLOAD_TOO_LARGE",
          issueCode: "BODY_TOO_LARGE",
          message: `a request body has at most ${formatCount(maxBody)} bytes (got ${got})`,
        });
      const declared = Number(req.headers.get("content-length") ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBody) return tooLarge(formatCount(declared));
      body = await readBounded(req, maxBody);
      if (body === null) return tooLarge(`more than ${formatCount(maxBody)}`);
    }

    const streaming = paths.some(isSubscription);
    const abort = new AbortController();
    const forward = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      signal: streaming ? req.signal : AbortSignal.any([req.signal, abort.signal]),
      ...(body !== null ? { body: body as NonNullable<RequestInit["body"]> } : {}),
    });
    const handled = fetchRequestHandler({
      endpoint,
      req: forward,
      router: appRouter,
      maxBatchSize: maxBatch,
      createContext: async ({ req: forwarded }) => ({
        ...(await options.createContext(forwarded)),
        requestId,
      }),
      responseMeta: () => ({ headers: { "x-request-id": requestId } }),
      onError({ error, path }) {
        // A bug (500) or a database fault mapped to an answer: the cause, under the request id.
        // Other refusals are the user's input, answered with their sentence.
        const mapped = (error as TRPCError & { original?: unknown }).original !== undefined;
        if (error.code === "INTERNAL_SERVER_ERROR" || mapped)
          log(`[request ${requestId}] ${path ?? "?"}: ${error.code}`, originalOf(error));
      },
    });
    if (streaming) return handled;

    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), budget);
    });
    const winner = await Promise.race([handled, timedOut]);
    clearTimeout(timer);
    if (winner !== "timeout") return winner;
    abort.abort();
    handled.catch(() => undefined);
    log(`[request ${requestId}] ${paths.join(",")}: stopped after ${budget} ms`);
    return refuse({
      status: 504,
      code: "TIMEOUT",
      issueCode: "TIMEOUT",
      message: `the request took longer than ${formatCount(budget / 1000)} s and was stopped; try again shortly (request ${requestId})`,
    });
  }
}
