/**
 * Who an inter-pool preemption is for when no pool waits any more (issue
 * #19 item 3): the pools whose demand took the entitlement since the victim
 * pool's baseline, the last period it was within its own.
 */

import {
  cycle,
  cycleInput,
  type LeafBuilder,
  leaf,
  running,
} from "@peloton/test-support/engine/preemption-builders.ts";
import { describe, expect, it } from "vitest";
import {
  advanceBaselines,
  decidePreemptions,
  describePreemption,
  type EntitlementBaselines,
  entitlementsAt,
  entitlementTakers,
  toResources,
} from "../src/index.ts";

const cpu = (n: number) => toResources({ cpu: n });

describe("baselines (state passed in, returned)", () => {
  //   /a  over (allocation 8 > entitlement 4)
  //   /b  within
  const now = [
    leaf("/a").entitled({ cpu: 4 }).allocated({ cpu: 8 }).build(),
    leaf("/b").entitled({ cpu: 4 }).allocated({ cpu: 4 }).build(),
  ];
  const earlier = entitlementsAt([
    leaf("/a").entitled({ cpu: 8 }).build(),
    leaf("/b").entitled({ cpu: 0 }).build(),
  ]);

  it.each([
    {
      name: "a pool within its entitlement takes this period's entitlements",
      over: [],
      prev: {},
      want: { "/a": 4, "/b": 4 },
    },
    {
      name: "a pool over its entitlement keeps the baseline it had",
      over: ["/a"],
      prev: { "/a": earlier },
      want: { "/a": 8, "/b": 4 },
    },
    {
      name: "a pool over its entitlement without a baseline has none",
      over: ["/a"],
      prev: {},
      want: { "/b": 4 },
    },
    {
      name: "pools no longer listed are forgotten",
      over: [],
      prev: { "/gone": earlier },
      want: { "/a": 4, "/b": 4 },
    },
    {
      name: "a pool over its entitlement listed in the last period without a baseline has none",
      over: ["/a"],
      prev: { "/": earlier },
      want: { "/b": 4 },
    },
  ])("$name", ({ over, prev, want }) => {
    const next = advanceBaselines(now, new Set(over), prev as EntitlementBaselines);
    // Each pool's baseline, read as its own entitlement then.
    const own = Object.fromEntries(
      Object.entries(next)
        .filter(([p]) => p !== "/")
        .map(([p, at]) => [p, at.get(p)?.nonSlack.cpu]),
    );
    expect(own).toStrictEqual(want);
    // The root's is always this period's: where a pool created before the next one starts.
    expect(next["/"]?.get("/a")?.nonSlack.cpu).toBe(4);
  });

  it("a pool created since the last period and over already starts from that period", () => {
    const last = entitlementsAt([leaf("/b").entitled({ cpu: 0 }).build()]);
    const next = advanceBaselines(now, new Set(["/a"]), { "/": last });
    expect(next["/a"]).toBe(last);
  });

  it("a decision returns the baselines: the due pool keeps its own, the others move on", () => {
    const c = cycle({
      pools: [
        leaf("/a").entitled({ cpu: 4 }).allocated({ cpu: 8 }),
        leaf("/b").entitled({ cpu: 4 }).allocated({ cpu: 4 }),
      ],
      tasks: [running("t").in("/a").cpu(4)],
      baselines: { "/a": earlier },
    });
    expect(c.entitlementBaselines["/a"]).toBe(earlier);
    expect(c.entitlementBaselines["/b"]?.get("/b")?.nonSlack.cpu).toBe(4);
  });

  it("between periods (the count not reached) an over pool keeps its baseline too", () => {
    const result = decidePreemptions({
      pools: now,
      tasks: [],
      jobs: {},
      overAllocationCounts: {},
      sustainedCount: 3,
      entitlementBaselines: { "/a": earlier },
    });
    if (!result.ok) throw new Error("valid input expected");
    expect(result.entitlementBaselines["/a"]).toBe(earlier);
  });
});

describe("the pools whose demand took the entitlement", () => {
  //   /
  //   ├─ oncall
  //   │  ├─ reports   over: allocation 8 > entitlement 4 (was 8)
  //   │  └─ adhoc     entitlement 0 → 4, all 4 running (waits for nothing)
  //   ├─ research    entitlement 2 → 3, allocation 3
  //   ├─ idle        entitlement 0 → 1, holds and wants nothing
  //   └─ steady      entitlement 4 → 4, allocation 4
  const pools = [
    leaf("/oncall/reports").entitled({ cpu: 4 }).allocated({ cpu: 8 }),
    leaf("/oncall/adhoc").entitled({ cpu: 4 }).allocated({ cpu: 4 }),
    leaf("/research").entitled({ cpu: 3 }).allocated({ cpu: 3 }),
    leaf("/idle").entitled({ cpu: 1 }),
    leaf("/steady").entitled({ cpu: 4 }).allocated({ cpu: 4 }),
  ];
  const before = entitlementsAt([
    leaf("/oncall/reports").entitled({ cpu: 8 }).build(),
    leaf("/oncall/adhoc").build(),
    leaf("/research").entitled({ cpu: 2 }).build(),
    leaf("/steady").entitled({ cpu: 4 }).build(),
  ]);
  const tasks = [running("r7").in("/oncall/reports").priority(1).cpu(4).started(7)];

  it("named closest first, each with its entitlement before; the level is the first one's common ancestor", () => {
    const d = cycle({ pools, tasks, baselines: { "/oncall/reports": before } }).decision("r7");
    if (d.kind !== "INTER_POOL") throw new Error("inter-pool expected");
    // /idle grew but uses nothing (a phase-3 share); /steady did not grow.
    expect(d.beneficiaries.map((b) => [b.pool, b.level, b.entitlementBefore?.cpu])).toEqual([
      ["/oncall/adhoc", "/oncall", 0],
      ["/research", "/", 2],
    ]);
    expect(d.level).toBe("/oncall");
    expect(describePreemption(d)).toBe(
      "/oncall/reports was over its cpu entitlement by 4 cores (allocation 8, entitlement 4): " +
        "/oncall/adhoc's demand took it (and 1 more pool), its cpu entitlement 0 → 4, decided at " +
        "/oncall; preempted running task r7 (priority 1), the lowest-priority, most recently " +
        "started candidate left",
    );
  });

  it("waiting pools and takers together, the closest relatives first; a waiting pool first at the same level", () => {
    //   /queue waits at the root's level; /oncall/adhoc took at /oncall's.
    const d = cycle({
      pools: [...pools, leaf("/queue").entitled({ cpu: 2 }).demand({ cpu: 2 })],
      tasks,
      baselines: { "/oncall/reports": before },
    }).decision("r7");
    if (d.kind !== "INTER_POOL") throw new Error("inter-pool expected");
    expect(d.beneficiaries.map((b) => [b.pool, b.entitlementBefore !== undefined])).toEqual([
      ["/oncall/adhoc", true],
      ["/queue", false],
      ["/research", true],
    ]);
  });

  it("without a baseline (a new leader's first periods) nobody is named", () => {
    const d = cycle({ pools, tasks }).decision("r7");
    expect(d.kind === "INTER_POOL" && d.beneficiaries).toEqual([]);
    expect(describePreemption(d)).toMatch(/no pool waits for it \(the entitlement shrank\)/);
  });

  it.each([
    {
      name: "growth in a kind not in excess does not count",
      taker: leaf("/b").entitled({ memory: 100 }).allocated({ memory: 100 }),
      was: leaf("/b"),
      named: [],
    },
    {
      name: "growth below ε does not count",
      taker: leaf("/b").entitled({ cpu: 4.0005 }).allocated({ cpu: 4 }),
      was: leaf("/b").entitled({ cpu: 4 }),
      named: [],
    },
    {
      name: "a pool created since the baseline took from nothing",
      taker: leaf("/b").entitled({ cpu: 4 }).demand({ cpu: 4 }),
      was: null,
      named: ["/b"],
    },
  ])("$name", ({ taker, was, named }) => {
    const victim = leaf("/a").entitled({ cpu: 4 }).allocated({ cpu: 8 }).build();
    const b = entitlementsAt([
      leaf("/a").entitled({ cpu: 8 }).build(),
      ...(was ? [was.build()] : []),
    ]);
    const takers = entitlementTakers("/a", cpu(4), "NON_SLACK", b, [victim, taker.build()]);
    expect(takers.map((t) => t.pool)).toEqual(named);
  });

  it("slack excess looks at slack entitlements", () => {
    //   /a  slack allocation 3 > slack entitlement 1 (was 3); /b slack 0 → 2, running 2
    const victim = leaf("/a").slackEntitled({ cpu: 1 }).slackAllocated({ cpu: 3 }).build();
    const taker = leaf("/b").slackEntitled({ cpu: 2 }).slackAllocated({ cpu: 2 }).build();
    const b = entitlementsAt([leaf("/a").slackEntitled({ cpu: 3 }).build(), leaf("/b").build()]);
    expect(entitlementTakers("/a", cpu(2), "SLACK", b, [victim, taker])).toEqual([
      expect.objectContaining({ pool: "/b", level: "/", entitlementBefore: cpu(0) }),
    ]);
    expect(entitlementTakers("/a", cpu(2), "NON_SLACK", b, [victim, taker])).toEqual([]);
  });
});

describe("pools created, filled and outgrown between two periods (a busy preemptor's)", () => {
  //   /
  //   ├─ web          entitlement 4, or 4 → 6 meanwhile
  //   └─ takers       cpu reservation 6, limit 6
  //      ├─ holder    allocation 6 > entitlement 4
  //      └─ taker     entitlement 0 → 2, its 2 tasks placed at once (waits for nothing)
  // Each row is the pools of three periods in a row, sustained count 2.
  const holder = () => leaf("/takers/holder").entitled({ cpu: 4 }).allocated({ cpu: 6 });
  const taker = () => leaf("/takers/taker").entitled({ cpu: 2 }).allocated({ cpu: 2 });
  const web = (cpu: number) => leaf("/web").entitled({ cpu }).allocated({ cpu });
  const tasks = [running("h5").in("/takers/holder").priority(1).cpu(2).started(5)];

  /** The beneficiaries of every decision over the periods: [pool, level, entitlement before]. */
  function named(periods: LeafBuilder[][]) {
    let counts: Record<string, number> = {};
    let baselines: EntitlementBaselines = {};
    const out: [string, string, number | undefined][][] = [];
    for (const pools of periods) {
      const result = decidePreemptions(
        cycleInput({ pools, tasks, counts, baselines, sustained: 2 }),
      );
      if (!result.ok) throw new Error("valid input expected");
      for (const d of result.decisions) {
        if (d.kind !== "INTER_POOL") continue;
        out.push(d.beneficiaries.map((b) => [b.pool, b.level, b.entitlementBefore?.cpu]));
      }
      counts = result.overAllocationCounts;
      baselines = result.entitlementBaselines;
    }
    return out;
  }

  it.each([
    {
      name: "the sibling whose demand took the entitlement is named, from nothing",
      periods: [[web(4)], [web(4), holder(), taker()], [web(4), holder(), taker()]],
      want: [[["/takers/taker", "/takers", 0]]],
    },
    {
      name: "a pool grown elsewhere meanwhile is named after the sibling",
      periods: [[web(4)], [web(6), holder(), taker()], [web(6), holder(), taker()]],
      want: [
        [
          ["/takers/taker", "/takers", 0],
          ["/web", "/", 4],
        ],
      ],
    },
    {
      name: "over since the leader's first period: when it was within is not known, nobody is named",
      periods: [
        [web(4), holder(), taker()],
        [web(4), holder(), taker()],
        [web(4), holder(), taker()],
      ],
      want: [[]],
    },
  ])("$name", ({ periods, want }) => {
    expect(named(periods)).toEqual(want);
  });
});
