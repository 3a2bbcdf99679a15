import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/runtime/logger.ts";
import { PeriodicLoop } from "../src/runtime/loop.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("PeriodicLoop", () => {
  it("ticks on start, on its period, and coalesces kicks during a tick into one more", async () => {
    let ticks = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const loop = new PeriodicLoop({
      name: "t",
      periodMs: 60,
      log: silentLogger(),
      tick: async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        ticks++;
        await sleep(20);
        inFlight--;
      },
    });
    loop.start();
    await sleep(5);
    loop.kick();
    loop.kick();
    loop.kick();
    await sleep(30);
    expect(ticks).toBe(2); // the start tick, then one for the three kicks
    await sleep(100);
    expect(ticks).toBe(3); // the period
    await loop.stop();
    const after = ticks;
    await sleep(100);
    expect(ticks).toBe(after);
    expect(maxInFlight).toBe(1);
  });

  it("keeps going after a failed tick", async () => {
    let ticks = 0;
    const loop = new PeriodicLoop({
      name: "t",
      periodMs: 20,
      log: silentLogger(),
      tick: async () => {
        ticks++;
        if (ticks === 1) throw new Error("boom");
      },
    });
    loop.start();
    await sleep(70);
    await loop.stop();
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it("says so while a tick is stalled, naming the loop, and stops saying so when it ends", async () => {
    const lines: { loop?: string; msg?: string }[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    let release: () => void = () => {};
    const loop = new PeriodicLoop({
      name: "resource-manager",
      periodMs: 10_000,
      stallMs: 30,
      log,
      tick: () => new Promise<void>((r) => (release = r)),
    });
    loop.start();
    await sleep(75);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatchObject({ loop: "resource-manager" });
    expect(lines[0]!.msg).toMatch(/^resource-manager: tick still running after \d+ s$/);
    release();
    await sleep(5);
    const after = lines.length;
    await sleep(80);
    expect(lines.length).toBe(after);
    await loop.stop();
  });
});
