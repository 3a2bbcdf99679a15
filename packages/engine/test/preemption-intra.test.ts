/**
 * Intra-pool preemption (ours, Peloton's priority model): a gang waiting in a
 * pool at its entitlement takes room from lower-priority preemptible tasks of
 * the same pool, all the room it needs or none. Each case draws its pool.
 */

import {
  cycle,
  gang,
  leaf,
  ready,
  running,
} from "@peloton/test-support/engine/preemption-builders.ts";
import { describe, expect, it } from "vitest";
import {
  describeGangPreemption,
  describePreemption,
  entitlementOf,
  preemptionPoolsOf,
} from "../src/index.ts";
import { cluster, entitle, pool } from "./support/builders.ts";

//   /web  cpu entitlement 10, allocation 10 (full)
const full = () => leaf("/web").entitled({ cpu: 10 }).allocated({ cpu: 10 });
// Intra-pool cases run with the pool not over its entitlement: no inter-pool victims.
const noInter = { counts: { "/web": 0 }, sustained: 5 };

describe("a waiting gang takes room from lower priorities", () => {
  it("the lowest-ranked lower-priority tasks, until the gang fits", () => {
    //   gang g priority 5 needs 4 cpu: 10 + 4 − 10 = 4 to free
    const c = cycle({
      ...noInter,
      pools: [full()],
      tasks: [
        running("p1").in("/web").priority(1).cpu(2).started(1),
        running("p3").in("/web").priority(3).cpu(2),
        running("p1-new").in("/web").priority(1).cpu(2).started(2),
        running("p5").in("/web").priority(5).cpu(4),
      ],
      waiting: [gang("g").in("/web").priority(5).cpu(4)],
    });
    // p1-new (2 left), p1 (covered); p3 not needed; p5 has the gang's priority.
    expect(c.victims("INTRA_POOL")).toEqual(["p1-new", "p1"]);
    expect(c.gangs).toEqual([
      {
        gangId: "g",
        pool: "/web",
        need: { cpu: 4, gpu: 0, memory: 0, disk: 0 },
        outcome: "PREEMPTS",
        victims: ["p1-new", "p1"],
        skippedForSla: [],
      },
    ]);
    const d = c.decision("p1-new");
    expect(d).toMatchObject({
      kind: "INTRA_POOL",
      level: "/web",
      numbers: { allocation: { cpu: 10 }, entitlement: { cpu: 10 }, excess: { cpu: 4 } },
      beneficiary: { gangId: "g", priority: 5, resources: { cpu: 4 } },
    });
    expect(describePreemption(d)).toBe(
      "/web was at its cpu entitlement (allocation 10, entitlement 10) while gang g (priority 5) " +
        "waited for 4 cores; preempted running task p1-new (priority 1), the lowest-priority, most " +
        "recently started candidate below priority 5",
    );
  });

  it("never a task of equal or higher priority: not enough below it, nothing preempted", () => {
    //   gang g priority 3 needs 4; below priority 3 only p1 (2 cpu)
    const c = cycle({
      ...noInter,
      pools: [full()],
      tasks: [
        running("p1").in("/web").priority(1).cpu(2),
        running("p3").in("/web").priority(3).cpu(4),
        running("p4").in("/web").priority(4).cpu(4),
      ],
      waiting: [gang("g").in("/web").priority(3).cpu(4)],
    });
    expect(c.decisions).toEqual([]);
    expect(c.gangs[0]).toMatchObject({ outcome: "NOT_ENOUGH_LOWER_PRIORITY", victims: [] });
    expect(describeGangPreemption(c.gangs[0]!)).toBe(
      "gang g needs 4 cores beyond /web's entitlement and its lower-priority preemptible tasks " +
        "cannot free that; nothing preempted",
    );
  });

  it("a gang that cannot be made to fit blocks the later gangs of its pool, not other pools", () => {
    const c = cycle({
      counts: { "/web": 0, "/api": 0 },
      sustained: 5,
      pools: [full(), leaf("/api").entitled({ cpu: 10 }).allocated({ cpu: 10 })],
      tasks: [running("w").in("/web").cpu(2), running("a").in("/api").cpu(2)],
      waiting: [
        gang("big").in("/web").priority(5).cpu(8),
        gang("small").in("/web").priority(5).cpu(2),
        gang("api").in("/api").priority(5).cpu(2),
      ],
    });
    expect(c.gangs.map((g) => [g.gangId, g.outcome])).toEqual([
      ["big", "NOT_ENOUGH_LOWER_PRIORITY"],
      ["small", "BLOCKED"],
      ["api", "PREEMPTS"],
    ]);
    expect(c.victims()).toEqual(["a"]);
    expect(describeGangPreemption(c.gangs[1]!)).toBe(
      "gang small waits behind an earlier gang of /web that cannot be made to fit",
    );
  });

  it("a gang that fits needs nothing, and takes its room for the gangs after it", () => {
    //   /web  entitlement 10, allocation 6: g1 (4) fits → 10; g2 (2) then needs 2
    const c = cycle({
      ...noInter,
      pools: [leaf("/web").entitled({ cpu: 10 }).allocated({ cpu: 6 })],
      tasks: [running("low").in("/web").priority(0).cpu(2)],
      waiting: [gang("g1").in("/web").priority(5).cpu(4), gang("g2").in("/web").priority(5).cpu(2)],
    });
    expect(c.gangs.map((g) => [g.gangId, g.outcome, g.need.cpu])).toEqual([
      ["g1", "FITS", 0],
      ["g2", "PREEMPTS", 2],
    ]);
    expect(describeGangPreemption(c.gangs[0]!)).toBe("gang g1 fits in /web without preemption");
    expect(describeGangPreemption(c.gangs[1]!)).toBe(
      "gang g2 needed 2 cores beyond /web's entitlement: 1 lower-priority task preempted",
    );
  });

  it("a revocable gang takes room from revocable tasks, against the slack entitlement", () => {
    const c = cycle({
      ...noInter,
      pools: [full().slackEntitled({ cpu: 4 }).slackAllocated({ cpu: 4 })],
      tasks: [running("n").in("/web").cpu(2), running("r").in("/web").cpu(2).revocableTask()],
      waiting: [gang("g").in("/web").priority(5).cpu(2).revocableGang()],
    });
    expect(c.victims()).toEqual(["r"]);
    expect(c.decision("r")).toMatchObject({ resourceClass: "SLACK" });
  });

  it("the SLA holds here too", () => {
    //   g1 needs 4: svc-1 allowed (0 + 1 ≤ 1), svc-2 would be the 2nd down, low-1 covers the rest
    const c = cycle({
      ...noInter,
      pools: [full()],
      tasks: [
        running("svc-1").in("/web").job("svc").cpu(2).started(2),
        running("svc-2").in("/web").job("svc").cpu(2).started(1),
        running("low-1").in("/web").job("batch").priority(1).cpu(2),
      ],
      jobs: { svc: { maximumUnavailableInstances: 1, unavailableInstances: 0 } },
      waiting: [gang("g1").in("/web").priority(5).cpu(4)],
    });
    expect(c.victims()).toEqual(["svc-1", "low-1"]);
    expect(c.gangs[0]).toMatchObject({ outcome: "PREEMPTS", skippedForSla: ["svc-2"] });
  });

  it("a choice that does not go ahead gives its SLA budget back", () => {
    //   /web: g1 needs 6, svc-1 + low hold 4 → nothing preempted (svc-1 was counted, then given back)
    //   /api: g2 needs 2: svc-3 is the job's first down → allowed
    const c = cycle({
      counts: { "/web": 0, "/api": 0 },
      sustained: 5,
      pools: [full(), leaf("/api").entitled({ cpu: 10 }).allocated({ cpu: 10 })],
      tasks: [
        running("svc-1").in("/web").job("svc").cpu(2),
        running("low").in("/web").job("batch").priority(1).cpu(2),
        running("svc-3").in("/api").job("svc").cpu(2),
      ],
      jobs: { svc: { maximumUnavailableInstances: 1, unavailableInstances: 0 } },
      waiting: [gang("g1").in("/web").priority(5).cpu(6), gang("g2").in("/api").priority(5).cpu(2)],
    });
    expect(c.gangs.map((g) => [g.gangId, g.outcome])).toEqual([
      ["g1", "NOT_ENOUGH_LOWER_PRIORITY"],
      ["g2", "PREEMPTS"],
    ]);
    expect(c.victims()).toEqual(["svc-3"]);
  });
});

describe("after the inter-pool pass", () => {
  it("its victims are not chosen again, and their room counts", () => {
    //   /web  entitlement 10, allocation 14 → inter-pool frees 4 (ready r1, r2);
    //   then gang g (2 cpu, priority 5): 10 + 2 − 10 = 2 more → low (priority 1)
    const c = cycle({
      pools: [leaf("/web").entitled({ cpu: 10 }).allocated({ cpu: 14 })],
      tasks: [
        ready("r1").in("/web").cpu(2),
        ready("r2").in("/web").cpu(2),
        running("low").in("/web").priority(1).cpu(2),
        running("high").in("/web").priority(9).cpu(8),
      ],
      waiting: [gang("g").in("/web").priority(5).cpu(2)],
    });
    expect(c.victims("INTER_POOL")).toEqual(["r1", "r2"]);
    expect(c.victims("INTRA_POOL")).toEqual(["low"]);
    expect(c.decision("low").numbers.allocation.cpu).toBe(10); // 14 − 4
  });
});

describe("pools from an entitlement result", () => {
  it("every leaf with its numbers; parents are not listed", () => {
    //   /
    //   └─ a
    //      ├─ x  demand 20, allocation 5
    //      └─ y
    const { result } = entitle(
      cluster({ cpu: 100 }, [
        pool("/a"),
        pool("/a/x").demand({ cpu: 20 }).alloc({ cpu: 5 }).slackAlloc({ cpu: 1 }),
        pool("/a/y"),
      ]),
    );
    const pools = preemptionPoolsOf(result);
    expect(pools.map((p) => p.path)).toEqual(["/a/x", "/a/y"]);
    const x = entitlementOf(result, "/a/x")!;
    expect(pools[0]).toMatchObject({
      nonSlackEntitlement: x.nonSlackEntitlement,
      slackEntitlement: x.slackEntitlement,
      allocation: { cpu: 5 },
      demand: { cpu: 20 },
      slackAllocation: { cpu: 1 },
    });
  });
});
