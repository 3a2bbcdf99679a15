/** Raw HTTP access to the sim: exact status codes, bodies and streams, no client in between. */
import http from "node:http";
import { type Event, RecordIODecoder } from "../../src/index.ts";
import { EventLog } from "./events.ts";
import { onCleanup } from "./harness.ts";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function rawRequest(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(opts.path ?? "/api/v1/scheduler", url);
    const req = http.request(
      target,
      { method: opts.method ?? "POST", headers: opts.headers, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** POSTs a call as JSON; non-subscribe calls carry `streamId` when given. */
export function rawCall(url: string, call: unknown, streamId?: string): Promise<RawResponse> {
  return rawRequest(url, {
    headers: {
      "Content-Type": "application/json",
      ...(streamId !== undefined ? { "Mesos-Stream-Id": streamId } : {}),
    },
    body: JSON.stringify(call),
  });
}

export interface RawStream {
  status: number;
  streamId: string;
  log: EventLog;
  /** Resolves when the master ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function rawSubscribe(url: string, call: unknown): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL("/api/v1/scheduler", url), {
      method: "POST",
      agent: false,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
    });
    req.on("error", () => {});
    req.on("response", (res) => {
      const log = new EventLog();
      const decoder = new RecordIODecoder();
      res.on("data", (chunk: Buffer) => {
        for (const r of decoder.push(chunk)) log.push(JSON.parse(r.toString("utf8")) as Event);
      });
      const ended = new Promise<void>((r) => res.on("close", () => r()));
      const stream = {
        status: res.statusCode ?? 0,
        streamId: String(res.headers["mesos-stream-id"] ?? ""),
        log,
        ended,
        close: () => {
          req.destroy();
        },
      };
      onCleanup(() => stream.close());
      resolve(stream);
    });
    req.once("error", reject);
    req.end(JSON.stringify(call));
  });
}

/** The structure of a JSON value: keys of objects, element structures of arrays, leaf types. */
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return typeof value;
}
