/**
 * One SUBSCRIBE connection: POST the call, check the `200` + `Mesos-Stream-Id`
 * answer, then decode the RecordIO body into events as chunks arrive.
 * Reconnection policy lives in the client; this file only knows one stream.
 */
import type http from "node:http";
import type { CallOf } from "../proto/calls.ts";
import { type Event, parseEvent } from "../proto/events.ts";
import { RecordIODecoder } from "../proto/recordio.ts";
import { MesosError } from "./errors.ts";
import { postJson } from "./http-post.ts";

export interface StreamCallbacks {
  /** Called for every decoded event, in stream order. */
  onEvent(event: Event): void;
  /** Called for every chunk: any byte received proves the connection alive. */
  onActivity(): void;
  /** An event of a type this client does not know; it is skipped. */
  onUnknownEvent?(type: string): void;
}

export interface StreamEnd {
  reason: string;
  error?: MesosError;
}

export interface Subscription {
  /** The master that answered (after 307 redirects): later calls go there. */
  url: URL;
  streamId: string;
  /** Settles once, when the stream ends for any reason. */
  ended: Promise<StreamEnd>;
  /** Drops the connection (e.g. heartbeats missed); `ended` resolves with `reason`. */
  close(reason: string): void;
}

export async function openSubscription(
  url: URL,
  call: CallOf<"SUBSCRIBE">,
  timeoutMs: number,
  callbacks: StreamCallbacks,
): Promise<Subscription> {
  const {
    url: leader,
    response,
    request,
  } = await postJson(url, JSON.stringify(call), {
    agent: false,
    timeoutMs,
    callType: "SUBSCRIBE",
  });
  // Past the headers the heartbeat rule decides liveness, not a socket timeout.
  request.setTimeout(0);
  const streamId = response.headers["mesos-stream-id"];
  if (typeof streamId !== "string" || streamId === "") {
    request.destroy();
    throw new MesosError("protocol", {
      status: response.statusCode,
      url: leader.href,
      callType: "SUBSCRIBE",
      masterMessage: "SUBSCRIBE answered without a Mesos-Stream-Id header",
    });
  }

  let settle: (end: StreamEnd) => void = () => {};
  const ended = new Promise<StreamEnd>((resolve) => {
    let done = false;
    settle = (end) => {
      if (done) return;
      done = true;
      resolve(end);
    };
  });
  const finish = (end: StreamEnd) => {
    settle(end);
    request.destroy();
  };

  consume(response, callbacks, leader, finish);
  response.once("end", () => finish({ reason: "stream ended by the master" }));
  response.once("aborted", () => finish({ reason: "stream aborted" }));
  response.once("close", () => finish({ reason: "connection closed" }));
  response.once("error", (err) =>
    finish({ reason: "stream error", error: new MesosError("network", { cause: err }) }),
  );
  request.once("error", (err) =>
    finish({ reason: "connection error", error: new MesosError("network", { cause: err }) }),
  );

  return { url: leader, streamId, ended, close: (reason) => finish({ reason }) };
}

function consume(
  response: http.IncomingMessage,
  callbacks: StreamCallbacks,
  leader: URL,
  finish: (end: StreamEnd) => void,
): void {
  const decoder = new RecordIODecoder();
  response.on("data", (chunk: Buffer) => {
    callbacks.onActivity();
    let records: Buffer[];
    try {
      records = decoder.push(chunk);
    } catch (err) {
      finish({ reason: "bad RecordIO framing", error: protocolError(leader, err) });
      return;
    }
    for (const record of records) {
      let json: unknown;
      try {
        json = JSON.parse(record.toString("utf8"));
      } catch (err) {
        finish({ reason: "event is not JSON", error: protocolError(leader, err) });
        return;
      }
      const parsed = parseEvent(json);
      if (parsed.ok) callbacks.onEvent(parsed.event);
      else if (parsed.kind === "unknown_type") callbacks.onUnknownEvent?.(parsed.type);
      else {
        finish({ reason: parsed.message, error: protocolError(leader, parsed.message) });
        return;
      }
    }
  });
}

function protocolError(leader: URL, cause: unknown): MesosError {
  return new MesosError("protocol", {
    url: leader.href,
    callType: "SUBSCRIBE",
    ...(typeof cause === "string" ? { masterMessage: cause } : { cause }),
  });
}
