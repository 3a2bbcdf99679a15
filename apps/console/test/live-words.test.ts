import { describe, expect, it } from "vitest";
import { INITIAL_LIVE_STATE, type LiveState } from "../src/lib/live-connection.ts";
import { describeLive } from "../src/lib/live-words.ts";

// Local times: the indicator shows the reader's clock.
const at = (h: number, m: number, s: number) => new Date(2026, 0, 1, h, m, s).getTime();
const NOW = at(14, 5, 0);
const live: LiveState = { status: "live", reason: null, offlineSince: null, nextAttemptAt: null };

describe("describeLive", () => {
  it("before the page has mounted, says the same whatever the clock (no hydration mismatch)", () => {
    const first = describeLive(INITIAL_LIVE_STATE, {
      updatedAt: at(1, 2, 3),
      failing: false,
      now: null,
    });
    expect(first).toEqual({ text: "Connecting to live updates… data from just now", tone: "warn" });
  });

  it("live: how fresh the data is", () => {
    expect(describeLive(live, { updatedAt: NOW - 21_000, failing: false, now: NOW })).toEqual({
      text: "Live · updated 21 seconds ago",
      tone: "ok",
    });
  });

  it("offline: since when, and when it tries again", () => {
    const offline: LiveState = {
      status: "offline",
      reason: "server",
      offlineSince: at(14, 3, 21),
      nextAttemptAt: NOW + 3_200,
    };
    expect(describeLive(offline, { updatedAt: NOW - 99_000, failing: false, now: NOW })).toEqual({
      text: "Offline since 14:03:21 · reconnecting in 4 s",
      tone: "bad",
    });
    const trying = { ...offline, nextAttemptAt: null };
    expect(describeLive(trying, { updatedAt: 0, failing: true, now: NOW }).text).toBe(
      "Offline since 14:03:21 · reconnecting…",
    );
    const back = { ...trying, status: "connecting" as const, reason: null };
    expect(describeLive(back, { updatedAt: 0, failing: false, now: NOW })).toEqual({
      text: "Reconnecting… offline since 14:03:21",
      tone: "warn",
    });
  });

  it("an outage that began on another day says which day, in the shared absolute format", () => {
    const overnight: LiveState = {
      status: "offline",
      reason: "server",
      offlineSince: new Date(2025, 11, 31, 23, 58, 0).getTime(),
      nextAttemptAt: null,
    };
    const text = describeLive(overnight, { updatedAt: 0, failing: false, now: NOW }).text;
    expect(text).toMatch(/^Offline since 2025-12-31 23:58:00 [+-]\d\d:\d\d · reconnecting…$/);
  });

  it("a server without its database is not live either", () => {
    const db: LiveState = {
      ...live,
      status: "offline",
      reason: "database",
      offlineSince: at(9, 0, 5),
    };
    expect(describeLive(db, { updatedAt: NOW, failing: false, now: NOW }).text).toBe(
      "Not live since 09:00:05: the server cannot reach its database",
    );
  });

  it("live but the page's own query fails: not current", () => {
    expect(describeLive(live, { updatedAt: NOW - 120_000, failing: true, now: NOW })).toEqual({
      text: "Not current: loading failed; data from 2 minutes ago",
      tone: "bad",
    });
  });
});
