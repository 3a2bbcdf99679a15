/**
 * The SUBSCRIBE POST to the master's scheduler endpoint with `node:http`,
 * following `307 Temporary Redirect` to the leading master. The response of
 * a 2xx is handed back unread, so the stream can be consumed incrementally.
 * (Every other call goes through call-channel.ts.)
 */
import http from "node:http";
import { kindForStatus, MesosError } from "./errors.ts";

export const SCHEDULER_PATH = "/api/v1/scheduler";
const MAX_ERROR_BODY = 64 * 1024;

export interface PostOptions {
  /** `false` = a dedicated connection (the subscription must not share sockets with calls). */
  agent: http.Agent | false;
  headers?: Record<string, string>;
  /** Time allowed for the response headers (and, for calls, the whole exchange). */
  timeoutMs: number;
  maxRedirects?: number;
  callType: string;
}

export interface PostResult {
  /** The URL that answered, after redirects: the leading master. */
  url: URL;
  response: http.IncomingMessage;
  request: http.ClientRequest;
}

/** The scheduler endpoint of a master given as "http://host:port" (path optional). */
export function schedulerUrl(master: string): URL {
  const url = new URL(master.includes("://") ? master : `http://${master}`);
  if (url.pathname === "/" || url.pathname === "") url.pathname = SCHEDULER_PATH;
  return url;
}

/**
 * Where a 307 points. Mesos sends `//host:port/api/v1/scheduler` (no scheme:
 * reuse ours); its docs also show a bare `host:port`.
 */
export function redirectTarget(location: string, from: URL): URL {
  const bareHostPort = /^[A-Za-z0-9.-]+:\d+(\/.*)?$/.test(location);
  const target = new URL(bareHostPort ? `//${location}` : location, from);
  if (target.pathname === "/" || target.pathname === "") target.pathname = from.pathname;
  return target;
}

export async function postJson(start: URL, body: string, opts: PostOptions): Promise<PostResult> {
  let url = start;
  const maxRedirects = opts.maxRedirects ?? 5;
  for (let hop = 0; ; hop++) {
    const { request, response } = await send(url, body, opts);
    const status = response.statusCode ?? 0;
    if (status === 307 || status === 308) {
      response.resume();
      const location = response.headers.location;
      if (location === undefined || hop >= maxRedirects) {
        throw new MesosError("too_many_redirects", {
          status,
          url: url.href,
          callType: opts.callType,
        });
      }
      url = redirectTarget(location, url);
      continue;
    }
    if (status >= 200 && status < 300) return { url, response, request };
    const text = await readText(response);
    throw new MesosError(kindForStatus(status), {
      status,
      masterMessage: text.trim(),
      url: url.href,
      callType: opts.callType,
    });
  }
}

function send(
  url: URL,
  body: string,
  opts: PostOptions,
): Promise<{ request: http.ClientRequest; response: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      agent: opts.agent,
      headers: {
        // Exactly this value: Mesos answers 415 to "application/json; charset=utf-8".
        "Content-Type": "application/json",
        Accept: "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        ...opts.headers,
      },
    });
    const facts = { url: url.href, callType: opts.callType };
    request.setTimeout(opts.timeoutMs, () => {
      request.destroy(new MesosError("timeout", facts));
    });
    request.once("error", (err) => {
      reject(err instanceof MesosError ? err : new MesosError("network", { ...facts, cause: err }));
    });
    request.once("response", (response) => resolve({ request, response }));
    request.end(body);
  });
}

function readText(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      if (size < MAX_ERROR_BODY) parts.push(chunk);
      size += chunk.length;
    });
    response.once("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    response.once("error", () => resolve(Buffer.concat(parts).toString("utf8")));
    response.once("aborted", () => resolve(Buffer.concat(parts).toString("utf8")));
  });
}
