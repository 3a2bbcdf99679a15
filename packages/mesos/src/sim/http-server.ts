/**
 * The sim's HTTP face, `node:http` only: `POST /api/v1/scheduler` with the
 * status codes of a real master, the operator API (`/api/v1`), each agent's
 * endpoints (`/agents/<id>/...`), the files API, the sim's control API
 * (`/sim/agents`) and a health check. Check order follows the master's handler: method, leadership,
 * Content-Type, body, then per-call checks.
 */

import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { parseCall } from "./call-validation.ts";
import { CONTROL_PREFIX, serveControl } from "./control-endpoint.ts";
import { EventStream } from "./event-stream.ts";
import { reply, serveFiles } from "./files-endpoint.ts";
import type { Master } from "./master.ts";
import { serveOperator } from "./operator-endpoint.ts";

const MAX_BODY_BYTES = 256 * 1024 * 1024;
const SCHEDULER_PATHS = new Set(["/api/v1/scheduler", "/master/api/v1/scheduler"]);

export interface Leadership {
  /** Where a non-leading master redirects to ("host:port"); undefined = this one leads. */
  redirectTo(): string | undefined;
  /** False = no leader elected yet: 503. */
  leading(): boolean;
}

export function createSimServer(master: Master, leadership: Leadership): http.Server {
  const server = http.createServer((req, res) => {
    handle(master, leadership, req, res).catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  });
  // Subscriptions are long-lived: no timeout may cut them.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 60_000;
  return server;
}

async function handle(
  master: Master,
  leadership: Leadership,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sim.local");
  const path = url.pathname;
  if (SCHEDULER_PATHS.has(path)) return scheduler(master, leadership, req, res, path);
  if (path === "/api/v1" || path === "/master/api/v1") return serveOperator(master, req, res);
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    return serveControl(master, url, req, res);
  }
  // The agents' work dirs (sandboxes, volumes), not the checkpoint in <root>/meta.
  const files = join(master.config.sandboxRoot, "slaves");
  if (path === "/files/read" || path === "/files/read.json") {
    return serveFiles(files, "read", url, req, res);
  }
  if (path === "/files/browse" || path === "/files/browse.json") {
    return serveFiles(files, "browse", url, req, res);
  }
  if (path === "/files/download") return serveFiles(files, "download", url, req, res);
  if (path === "/health") return reply(res, 200, "OK");
  reply(res, 404, `No route for ${path}`);
}

async function scheduler(
  master: Master,
  leadership: Leadership,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  if (req.method !== "POST") {
    req.resume();
    return reply(res, 405, `Expecting one of { 'POST' }, but received '${req.method}'`, {
      Allow: "POST",
    });
  }
  const leader = leadership.redirectTo();
  if (leader !== undefined) {
    req.resume();
    // Like Mesos: scheme-less, the client keeps its own scheme.
    res.writeHead(307, { Location: `//${leader}${path}`, "Content-Length": "0" });
    res.end();
    return;
  }
  if (!leadership.leading()) {
    req.resume();
    return reply(res, 503, "No leader elected");
  }
  const contentType = req.headers["content-type"];
  if (contentType === undefined) {
    req.resume();
    return reply(res, 400, "Expecting 'Content-Type' to be present");
  }
  if (contentType !== "application/json") {
    req.resume();
    const note = contentType === "application/x-protobuf" ? " (mesos-sim speaks JSON only)" : "";
    return reply(
      res,
      415,
      `Expecting 'Content-Type' of application/json or application/x-protobuf${note}`,
    );
  }
  const body = await readBody(req);
  if (body === undefined) return reply(res, 413, "Request body too large");
  const parsed = parseCall(body);
  if (!parsed.ok) return reply(res, 400, parsed.message);
  const call = parsed.call;
  if (call.type === "SUBSCRIBE") {
    if (!acceptsJson(req.headers.accept)) {
      return reply(
        res,
        406,
        "Expecting 'Accept' to allow 'application/json' or 'application/x-protobuf'",
      );
    }
    master.subscribe(call, new EventStream(res));
    return;
  }
  const streamHeader = req.headers["mesos-stream-id"];
  const outcome = master.handle(call, typeof streamHeader === "string" ? streamHeader : undefined);
  if (outcome.status === 202) {
    accepted(res);
  } else {
    reply(res, outcome.status, outcome.message);
  }
}

/**
 * `202 Accepted`. Each answer leaves in a write of its own, pipelined or
 * not: `end()` fully uncorks the socket (node:http does so on purpose), and
 * node:http hands the next pipelined answer the socket only once this one's
 * write finished, so corking the socket here batched nothing. In an
 * ACKNOWLEDGE storm those writes are about a fifth of the sim's CPU
 * (e2e.batch_10k_agents_500); answering them together would take an HTTP
 * server of our own.
 */
function accepted(res: ServerResponse): void {
  res.writeHead(202, { "Content-Length": "0" });
  res.end();
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) parts.push(chunk);
    });
    req.once("end", () =>
      resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(parts).toString("utf8")),
    );
    req.once("error", reject);
  });
}

/** No Accept header means anything goes; otherwise a JSON-compatible range with q > 0. */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accept.split(",").some((range) => {
    const [type = "", ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    if (q !== undefined && Number(q.slice(2)) <= 0) return false;
    return type === "application/json" || type === "application/*" || type === "*/*";
  });
}
