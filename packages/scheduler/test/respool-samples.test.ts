import type { EntitlementSampleRecord } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import { calculateSnapshot } from "../src/resmgr/respool/entitlements.ts";
import { SampleMemory, samplesOf } from "../src/resmgr/respool/samples.ts";
import { seriesWindow, shapeSeries } from "../src/resmgr/respool/series.ts";
import { snapshotFrom } from "./support/pools.ts";

const T0 = new Date("2026-04-01T12:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function sample(seconds: number, entitlement: number, kind: "cpu" | "gpu" = "cpu") {
  return {
    poolId: "p",
    kind,
    at: at(seconds),
    entitlement,
    slackEntitlement: 0,
    allocation: 1,
    demand: 2,
    reservation: 3,
    limit: 4,
  } satisfies EntitlementSampleRecord;
}

describe("samplesOf", () => {
  it("has one sample per pool and kind with the calculator's numbers and the settings", () => {
    // /a alone under a cluster of 100 cpu: it is entitled to all of it.
    const snapshot = snapshotFrom([["/a", { cpu: [10, 100, 1] }]], {
      usage: { "/a": { allocation: { cpu: 4 } } },
    });
    const samples = samplesOf(snapshot, calculateSnapshot(snapshot), T0);
    expect(samples).toHaveLength(4);
    expect(samples.find((s) => s.kind === "cpu")).toEqual({
      poolId: "id/a",
      kind: "cpu",
      at: T0,
      entitlement: 100,
      slackEntitlement: 0,
      allocation: 4,
      demand: 0,
      reservation: 10,
      limit: 100,
    });
  });
});

describe("SampleMemory", () => {
  it("stores what changed, and everything again after the keep-alive or a forget()", () => {
    const memory = new SampleMemory(60_000);
    const first = [sample(0, 5), sample(0, 1, "gpu")];
    expect(memory.select(first)).toEqual(first);
    memory.remember(first);
    // 30 s later: cpu changed, gpu did not.
    const second = memory.select([sample(30, 6), sample(30, 1, "gpu")]);
    expect(second).toEqual([sample(30, 6)]);
    memory.remember(second);
    // 60 s after gpu was stored it is stored again, unchanged; cpu (stored at 30 s) is not.
    expect(memory.select([sample(60, 6), sample(60, 1, "gpu")])).toEqual([sample(60, 1, "gpu")]);
    memory.forget();
    expect(memory.select([sample(61, 5)])).toEqual([sample(61, 5)]);
  });
});

describe("shapeSeries", () => {
  it("starts the line with the value held at `from`, keeps the samples, ends at `to`", () => {
    const window = seriesWindow(600_000, at(600));
    expect(window).toEqual({ from: at(0), to: at(600), bucketMs: 2500 });
    const series = shapeSeries(window, {
      previous: [sample(-100, 7)],
      samples: [sample(100, 8), sample(300, 9)],
    });
    expect(series.kinds.cpu.map((p) => [p.at.getTime() - T0.getTime(), p.entitlement])).toEqual([
      [0, 7],
      [100_000, 8],
      [300_000, 9],
      [600_000, 9],
    ]);
    expect(series.kinds.gpu).toEqual([]);
  });
});
