import { ManualClock } from "@peloton/test-support/storage/manual-clock.ts";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/common/logger.ts";
import { PeriodicLoop } from "../src/common/loop.ts";

/** A tick the test ends by hand: `calls` counts starts, `finish()` ends the one in flight. */
function heldTick() {
  const state = { calls: 0, inFlight: 0, maxInFlight: 0, finish: () => {} };
  const tick = () =>
    new Promise<void>((resolve) => {
      state.calls++;
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      state.finish = () => {
        state.inFlight--;
        resolve();
      };
    });
  return { state, tick };
}

describe("PeriodicLoop", () => {
  it("ticks on start, on its period, and coalesces kicks during a tick into one more", async () => {
    const clock = new ManualClock();
    const { state, tick } = heldTick();
    const loop = new PeriodicLoop({ name: "t", periodMs: 60, log: silentLogger(), tick, clock });
    loop.start();
    await clock.advance(0);
    expect(state.calls).toBe(1); // the start tick
    loop.kick();
    loop.kick();
    loop.kick();
    await clock.advance(1_000); // no period runs while a tick is in flight
    expect(state.calls).toBe(1);
    state.finish();
    await clock.advance(0);
    expect(state.calls).toBe(2); // one more for the three kicks, at once
    state.finish();
    await clock.advance(59);
    expect(state.calls).toBe(2);
    await clock.advance(1);
    expect(state.calls).toBe(3); // the period, counted from the end of the last tick
    state.finish();
    await loop.stop();
    await clock.advance(1_000);
    expect(state.calls).toBe(3);
    expect(clock.timers).toBe(0);
    expect(state.maxInFlight).toBe(1);
  });

  it("waits a period before the first tick when told not to run on start", async () => {
    const clock = new ManualClock();
    let ticks = 0;
    const loop = new PeriodicLoop({
      name: "t",
      periodMs: 20,
      runOnStart: false,
      log: silentLogger(),
      tick: async () => {
        ticks++;
      },
      clock,
    });
    loop.start();
    await clock.advance(19);
    expect(ticks).toBe(0);
    await clock.advance(1);
    expect(ticks).toBe(1);
    await loop.stop();
  });

  it("keeps going after a failed tick", async () => {
    const clock = new ManualClock();
    const lines: { msg?: string }[] = [];
    const log = pino({ level: "error" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    let ticks = 0;
    const loop = new PeriodicLoop({
      name: "t",
      periodMs: 20,
      log,
      tick: async () => {
        ticks++;
        if (ticks === 1) throw new Error("boom");
      },
      clock,
    });
    loop.start();
    await clock.advance(40);
    await loop.stop();
    expect(ticks).toBe(3); // at 0 (failed), 20 and 40
    expect(lines.map((l) => l.msg)).toEqual(["t: tick failed"]);
  });

  it("says so while a tick is stalled, naming the loop, and stops saying so when it ends", async () => {
    const clock = new ManualClock();
    const lines: { loop?: string; msg?: string; runningMs?: number }[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const { state, tick } = heldTick();
    const loop = new PeriodicLoop({
      name: "resource-manager",
      periodMs: 100_000,
      stallMs: 30_000,
      log,
      tick,
      clock,
    });
    loop.start();
    await clock.advance(29_999);
    expect(lines).toEqual([]);
    await clock.advance(45_001);
    expect(lines).toMatchObject([
      {
        loop: "resource-manager",
        runningMs: 30_000,
        msg: "resource-manager: tick still running after 30 s",
      },
      { loop: "resource-manager", runningMs: 60_000 },
    ]);
    state.finish();
    await clock.advance(99_999);
    expect(lines).toHaveLength(2);
    await loop.stop();
  });
});
