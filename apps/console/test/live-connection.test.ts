import type { LiveMessage } from "@peloton/api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveConnection, type LiveState, type StreamHandlers } from "../src/lib/live-connection.ts";

const beat = (feed: "listening" | "down" | "connecting" = "listening"): LiveMessage => ({
  kind: "heartbeat",
  everyMs: 2_000,
  feed,
});

/** A connection over a fake stream: each `open` is recorded, the test plays the server. */
function harness() {
  const streams: { handlers: StreamHandlers; closed: boolean }[] = [];
  const states: LiveState[] = [];
  const messages: LiveMessage[] = [];
  const connection = new LiveConnection({
    open: (handlers) => {
      const stream = { handlers, closed: false };
      streams.push(stream);
      return () => {
        stream.closed = true;
      };
    },
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
  });
  const last = () => streams.at(-1)!;
  const state = () => states.at(-1);
  /** The server answers a fresh stream as live.ts does. */
  const serve = () => {
    last().handlers.onData({ kind: "resync" });
    last().handlers.onData(beat());
  };
  return { connection, streams, states, messages, last, state, serve };
}

describe("LiveConnection", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T12:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("is live once the server's first messages arrive, and passes every message on", () => {
    const h = harness();
    h.connection.start();
    expect(h.streams).toHaveLength(1);
    expect(h.state()).toBeUndefined(); // still the initial "connecting"
    h.serve();
    expect(h.state()?.status).toBe("live");
    expect(h.messages.map((m) => m.kind)).toEqual(["resync", "heartbeat"]);
  });

  it("goes offline when two heartbeats are missed, with no error from the stream", () => {
    const h = harness();
    h.connection.start();
    h.serve();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(2_000);
      h.last().handlers.onData(beat());
    }
    expect(h.state()?.status).toBe("live");
    const lostAt = Date.now();
    vi.advanceTimersByTime(4_400);
    expect(h.state()?.status).toBe("live");
    vi.advanceTimersByTime(200);
    const state = h.state()!;
    expect(state).toMatchObject({ status: "offline", reason: "server" });
    expect(state.offlineSince! - lostAt).toBe(4_500);
    expect(h.streams[0]!.closed).toBe(true);
  });

  it("reconnects by itself with backoff capped at 10 s, keeping the time it went offline", () => {
    const h = harness();
    h.connection.start();
    h.serve();
    h.last().handlers.onLost(new Error("EventSource error"));
    const since = Date.now();
    expect(h.state()).toMatchObject({ status: "offline", offlineSince: since });
    const waits: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const opened = h.streams.length;
      const due = h.state()!.nextAttemptAt! - Date.now();
      waits.push(due);
      vi.advanceTimersByTime(due - 1);
      expect(h.streams).toHaveLength(opened);
      vi.advanceTimersByTime(1);
      expect(h.streams).toHaveLength(opened + 1);
      h.last().handlers.onLost(new Error("connection refused"));
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    expect(h.state()?.offlineSince).toBe(since);

    vi.advanceTimersByTime(10_000);
    const before = h.messages.length;
    h.serve();
    expect(h.state()).toMatchObject({ status: "live", offlineSince: null, nextAttemptAt: null });
    // The resync is what makes the page refetch everything it shows.
    expect(h.messages.slice(before)[0]).toEqual({ kind: "resync" });
    // Back to the first delay after a success.
    h.last().handlers.onLost();
    expect(h.state()!.nextAttemptAt! - Date.now()).toBe(1_000);
  });

  it("gives up on an attempt that hangs, and tries again", () => {
    const h = harness();
    h.connection.start();
    vi.advanceTimersByTime(4_500);
    expect(h.state()).toMatchObject({ status: "offline", reason: "server" });
    vi.advanceTimersByTime(1_000);
    expect(h.streams).toHaveLength(2);
    expect(h.streams[0]!.closed).toBe(true);
  });

  it("ignores a closed stream's late messages and errors", () => {
    const h = harness();
    h.connection.start();
    h.serve();
    const old = h.last();
    old.handlers.onLost();
    vi.advanceTimersByTime(1_000);
    const states = h.states.length;
    old.handlers.onData(beat());
    old.handlers.onLost();
    expect(h.states).toHaveLength(states);
    expect(h.streams).toHaveLength(2);
  });

  it("says so when the server answers but cannot hear the database, and is live when it can again", () => {
    const h = harness();
    h.connection.start();
    h.serve();
    h.last().handlers.onData(beat("down"));
    expect(h.state()).toMatchObject({ status: "offline", reason: "database", nextAttemptAt: null });
    // Heartbeats still arrive: the stream is not reopened.
    vi.advanceTimersByTime(2_000);
    h.last().handlers.onData(beat("down"));
    vi.advanceTimersByTime(2_000);
    h.last().handlers.onData(beat("down"));
    expect(h.streams).toHaveLength(1);
    h.last().handlers.onData({ kind: "resync" });
    expect(h.state()?.status).toBe("live");
  });

  it("tries at once when told the network is back, and stops for good on stop()", () => {
    const h = harness();
    h.connection.start();
    h.last().handlers.onLost();
    h.connection.retryNow();
    expect(h.streams).toHaveLength(2);
    h.connection.stop();
    expect(h.last().closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(h.streams).toHaveLength(2);
  });
});
