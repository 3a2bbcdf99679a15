/**
 * Peloton's own calculator tests (pkg/resmgr/entitlement/calculator_test.go),
 * ported, and the document's worked example. Peloton compares integers
 * truncated (`tasktestutil.ValidateResources`), because ε leaves values such as
 * 17.4996 for 17.5; so do these ports.
 *
 *   / cpu 100, gpu 0, memory 1000, disk 6000; slack cpu 80
 *   ├─ respool1
 *   │  ├─ respool11
 *   │  └─ respool12
 *   ├─ respool2
 *   │  ├─ respool21
 *   │  └─ respool22
 *   └─ respool3
 *
 * Every pool: cpu 10/1000, memory 100/1000, disk 1000/1000, gpu 1/4
 * (reservation/limit), share 1.
 */
import { describe, expect, it } from "vitest";
import type { Resources } from "../src/index.ts";
import { cluster, entitle, type PoolBuilder, pool, truncInt } from "./support/builders.ts";

const CAPACITY = { cpu: 100, gpu: 0, memory: 1000, disk: 6000 };
const SLACK = { cpu: 80 };
const DEMAND = { cpu: 20, memory: 200, disk: 2000, gpu: 0 };

/** The tree with per-pool tweaks (usage, STATIC). */
function pelotonTree(tweak: Record<string, (p: PoolBuilder) => PoolBuilder> = {}): PoolBuilder[] {
  const paths = [
    "/respool1",
    "/respool1/respool11",
    "/respool1/respool12",
    "/respool2",
    "/respool2/respool21",
    "/respool2/respool22",
    "/respool3",
  ];
  return paths.map((path) => {
    const b = pool(path).peloton();
    return tweak[path]?.(b) ?? b;
  });
}

function run(tweak: Record<string, (p: PoolBuilder) => PoolBuilder>) {
  return entitle(cluster(CAPACITY, pelotonTree(tweak), SLACK));
}

const ints = (cpu: number, gpu: number, memory: number, disk: number): Resources => ({
  cpu,
  gpu,
  memory,
  disk,
});

describe("Peloton TestEntitlement", () => {
  it("demand in respool11 only: it takes its share of what respool1 got", () => {
    const { at } = run({ "/respool1/respool11": (p) => p.demand(DEMAND) });
    expect(truncInt(at("/respool1/respool11").entitlement)).toEqual(ints(33, 0, 333, 1000));
    expect(truncInt(at("/respool1/respool12").entitlement)).toEqual(ints(13, 0, 133, 0));
  });

  it("demand in respool11 and respool21", () => {
    const { at } = run({
      "/respool1/respool11": (p) => p.demand(DEMAND),
      "/respool2/respool21": (p) => p.demand(DEMAND),
    });
    expect(truncInt(at("/respool1/respool11").entitlement)).toEqual(ints(30, 0, 300, 1000));
    expect(truncInt(at("/respool1/respool12").entitlement)).toEqual(ints(10, 0, 100, 0));
    expect(truncInt(at("/respool2/respool21").entitlement)).toEqual(ints(30, 0, 300, 1000));
  });

  it("demand in respool11, respool21 and respool22", () => {
    const { at } = run({
      "/respool1/respool11": (p) => p.demand(DEMAND),
      "/respool2/respool21": (p) => p.demand(DEMAND),
      "/respool2/respool22": (p) => p.demand(DEMAND),
    });
    expect(truncInt(at("/respool1/respool11").entitlement)).toEqual(ints(26, 0, 266, 1000));
    expect(truncInt(at("/respool2/respool21").entitlement)).toEqual(ints(26, 0, 266, 1000));
    expect(truncInt(at("/respool2/respool22").entitlement)).toEqual(ints(26, 0, 266, 1000));
    expect(truncInt(at("/respool2").entitlement)).toEqual(ints(53, 0, 533, 1000));
    expect(truncInt(at("/respool3").entitlement)).toEqual(ints(13, 0, 133, 1000));
    expect(truncInt(at("/respool1").entitlement)).toEqual(ints(33, 0, 333, 1000));
    expect(truncInt(at("/").entitlement)).toEqual(ints(100, 0, 1000, 6000));
  });
});

describe("Peloton TestEntitlementWithMoreDemand", () => {
  it("every leaf wants 40 cpu: equal shares all the way down", () => {
    const more = (p: PoolBuilder) => p.demand({ cpu: 40, memory: 400, disk: 4000, gpu: 0 });
    const { at } = run({
      "/respool1/respool11": more,
      "/respool1/respool12": more,
      "/respool2/respool21": more,
      "/respool2/respool22": more,
      "/respool3": more,
    });
    expect(truncInt(at("/").entitlement)).toEqual(ints(100, 0, 1000, 6000));
    for (const p of ["/respool1", "/respool2", "/respool3"]) {
      expect(truncInt(at(p).entitlement), p).toEqual(ints(33, 0, 333, 1000));
    }
    for (const p of [
      "/respool1/respool11",
      "/respool1/respool12",
      "/respool2/respool21",
      "/respool2/respool22",
    ]) {
      expect(truncInt(at(p).entitlement), p).toEqual(ints(16, 0, 166, 1000));
    }
  });
});

describe("Peloton TestEntitlementForSlackResources", () => {
  const base = {
    "/respool1/respool11": (p: PoolBuilder) =>
      p.slackDemand({ cpu: 20, memory: 200, disk: 2000, gpu: 0 }),
    "/respool2/respool21": (p: PoolBuilder) =>
      p
        .slackDemand({ cpu: 20, memory: 10, disk: 50, gpu: 0 })
        .slackAlloc({ cpu: 5, memory: 5, disk: 25, gpu: 0 }),
    "/respool3": (p: PoolBuilder) => p.slackDemand({ cpu: 20, memory: 10, disk: 100, gpu: 0 }),
  };

  it("memory and disk for revocable tasks are capped at the slack limit or the requirement", () => {
    const { at } = run(base);
    // respool11: demand above the limit → 20% of reservation (100 × 0.2, 1000 × 0.2).
    expect(at("/respool1/respool11").slackEntitlement.memory).toBe(100 * 0.2);
    expect(at("/respool1/respool11").slackEntitlement.disk).toBe(1000 * 0.2);
    // respool21: allocation + demand (5 + 10, 25 + 50) under the limit.
    expect(at("/respool2/respool21").slackEntitlement.memory).toBe(15);
    expect(at("/respool2/respool21").slackEntitlement.disk).toBe(75);
    // respool3: demand under the limit.
    expect(at("/respool3").slackEntitlement.memory).toBe(10);
    expect(at("/respool3").slackEntitlement.disk).toBe(100);
  });

  it("80 revocable cpus: allocation, then demand by share, then the rest by share", () => {
    const { at } = run(base);
    expect(at("/respool1/respool11").slackEntitlement.cpu).toBe(22.5);
    expect(at("/respool1/respool12").slackEntitlement.cpu).toBe(2.5);
    expect(at("/respool2/respool21").slackEntitlement.cpu).toBe(27.5);
    expect(at("/respool2/respool22").slackEntitlement.cpu).toBe(2.5);
    expect(at("/respool3").slackEntitlement.cpu).toBe(25);
  });

  it("demand above the slack capacity: satisfied pools keep their need, the rest is split", () => {
    const { at } = run({
      ...base,
      "/respool1/respool12": (p) => p.slackDemand({ cpu: 30, memory: 20, disk: 20, gpu: 0 }),
    });
    // R1 needs 50, R2 25 (20 + 5 allocated), R3 20: R2 and R3 satisfied, R1 ≈ 35,
    // split equally inside R1 (17.4996… each: ε leaves the sliver).
    expect(Math.trunc(at("/respool1/respool11").slackEntitlement.cpu)).toBe(17);
    expect(Math.trunc(at("/respool1/respool12").slackEntitlement.cpu)).toBe(17);
    expect(Math.round(at("/respool2/respool21").slackEntitlement.cpu)).toBe(25);
    expect(at("/respool2/respool22").slackEntitlement.cpu).toBe(0);
    expect(at("/respool3").slackEntitlement.cpu).toBe(20);
  });
});

describe("Peloton TestZeroSlackEntitlement", () => {
  it("no revocable demand or allocation: nothing is kept for revocable tasks", () => {
    const { at } = run({
      "/respool1/respool11": (p) =>
        p
          .alloc({ cpu: 100, memory: 200, disk: 200, gpu: 0 })
          .demand({ cpu: 10, memory: 100, disk: 100 }),
    });
    const slack = at("/respool1/respool11").slackEntitlement;
    expect([slack.memory, slack.gpu, slack.disk]).toEqual([0, 0, 0]);
  });
});

describe("Peloton TestSlackEntitlementReduces", () => {
  it("more non-revocable demand shrinks what is kept for revocable tasks", () => {
    const { at } = run({
      "/respool1/respool11": (p) =>
        p
          .alloc({ cpu: 50, memory: 100, disk: 100, gpu: 0 })
          .slackAlloc({ cpu: 50, memory: 100, disk: 100, gpu: 0 })
          .demand({ cpu: 60, memory: 890, disk: 100, gpu: 0 }),
    });
    const r = at("/respool1/respool11");
    // memory: entitlement 1000 − need (100 + 890) = 10 left, under the slack limit 20.
    expect(r.slackEntitlement.memory).toBe(10);
    // disk: min(slack limit 200, allocation 100) = 100.
    expect(r.slackEntitlement.disk).toBe(100);
    expect(r.entitlement.memory - r.slackEntitlement.memory).toBe(990);
    expect(r.nonSlackEntitlement.memory).toBe(990);
  });
});

describe("Peloton TestStaticRespoolsEntitlement", () => {
  it("STATIC children keep their reservations, even beyond the parent's", () => {
    const { at } = run({
      "/respool1/respool11": (p) =>
        p.static().demand(DEMAND).slackDemand({ cpu: 20, memory: 10, disk: 100, gpu: 0 }),
      "/respool1/respool12": (p) => p.static(),
    });
    // respool1 gets cpu 10 + 10 + 80/3 = 46.67; inside, 10 + 10 (STATIC respool12)
    // reserved, respool11 + 10 by share, + (46.67 − 30)/2 = 28.33. gpu 1 each,
    // though respool1 has 0: absorbed.
    expect(truncInt(at("/respool1/respool11").entitlement)).toEqual(ints(28, 1, 291, 1000));
    // Out of 80 revocable cpus: respool1 20 for demand + 20 unclaimed; inside, 20 for
    // respool11's demand and half of the 20 left.
    expect(truncInt(at("/respool1/respool11").slackEntitlement)).toEqual(ints(30, 0, 10, 0));
  });
});

describe("the document's worked example (peloton-semantics.md §1)", () => {
  /*
   *   / cpu 100, memory 1000, disk 6000, gpu 0
   *   ├─ a
   *   │  ├─ x  demand cpu 20, memory 200, disk 2000
   *   │  └─ y
   *   ├─ b
   *   └─ c
   *   each: cpu 10/1000, memory 100/1000, disk 1000/1000, gpu 1/4, share 1
   */
  const { at } = entitle(
    cluster(CAPACITY, [
      pool("/a").peloton(),
      pool("/a/x").peloton().demand(DEMAND),
      pool("/a/y").peloton(),
      pool("/b").peloton(),
      pool("/c").peloton(),
    ]),
  );

  it.each([
    // a: 10 reserved + 10 in phase 2 + 80/3 in phase 3.
    ["/a", "cpu", 46.67],
    ["/b", "cpu", 26.67],
    ["/c", "cpu", 26.67],
    // x: 10 + 10 + (46.67 − 20)/2.
    ["/a/x", "cpu", 33.33],
    ["/a/y", "cpu", 13.33],
    ["/a/x", "memory", 333.33],
    // demand 2000 capped at the limit 1000; y gets nothing of a's 1000.
    ["/a/x", "disk", 1000],
    ["/a/y", "disk", 0],
    ["/a", "gpu", 0],
    ["/a/x", "gpu", 0],
  ] as const)("%s %s = %d", (path, kind, amount) => {
    expect(at(path).entitlement[kind]).toBeCloseTo(amount, 2);
  });
});
