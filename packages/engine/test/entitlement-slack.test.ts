/**
 * The revocable (slack) pass, one case per rule of peloton-semantics.md §1,
 * "Revocable (slack) resources".
 */
import { describe, expect, it } from "vitest";
import type { ResourceKind } from "../src/index.ts";
import { cluster, entitle, type PoolBuilder, pool } from "./support/builders.ts";

interface Case {
  name: string;
  tree: string;
  capacity: Record<string, number>;
  slackCpu: number;
  pools: PoolBuilder[];
  expect: { path: string; kind: ResourceKind; slack?: number; nonSlack?: number }[];
}

const cases: Case[] = [
  {
    name: "memory kept for revocable tasks is capped by the slack limit (20% of the reservation)",
    tree: `
      / memory 1000
      └─ a  memory reserve 100, slack demand 500`,
    capacity: { memory: 1000 },
    slackCpu: 0,
    pools: [pool("/a").reserve({ memory: 100 }).slackDemand({ memory: 500 })],
    // want = 0 + min(20, 500) = 20 → entitlement 1000 (phase 3); kept min(1000 − 0, 20) = 20.
    expect: [{ path: "/a", kind: "memory", slack: 20, nonSlack: 980 }],
  },
  {
    name: "slackLimit.maxPercent changes the cap",
    tree: `
      / memory 1000
      └─ a  memory reserve 100, slack limit 50%, slack demand 500`,
    capacity: { memory: 1000 },
    slackCpu: 0,
    pools: [pool("/a").reserve({ memory: 100 }).slackLimit(50).slackDemand({ memory: 500 })],
    // slack limit 100 × 0.5 = 50; kept 50; non-slack 1000 − 50.
    expect: [{ path: "/a", kind: "memory", slack: 50, nonSlack: 950 }],
  },
  {
    name: "non-revocable need comes first: only what it leaves is kept",
    tree: `
      / memory 100
      └─ a  memory reserve 100, limit 100, demand 95, slack demand 50`,
    capacity: { memory: 100 },
    slackCpu: 0,
    pools: [
      pool("/a")
        .reserve({ memory: 100 })
        .limit({ memory: 100 })
        .demand({ memory: 95 })
        .slackDemand({ memory: 50 }),
    ],
    // entitlement 100; 100 − 95 = 5 left < requirement min(20, 50) = 20 → kept 5.
    expect: [{ path: "/a", kind: "memory", slack: 5, nonSlack: 95 }],
  },
  {
    name: "nothing kept: the non-slack entitlement is the whole entitlement",
    tree: `
      / cpu 50, memory 100
      └─ a  demand cpu 10`,
    capacity: { cpu: 50, memory: 100 },
    slackCpu: 0,
    pools: [pool("/a").demand({ cpu: 10 })],
    expect: [
      { path: "/a", kind: "cpu", slack: 0, nonSlack: 50 },
      { path: "/a", kind: "memory", slack: 0, nonSlack: 100 },
    ],
  },
  {
    name: "cpu is never kept from the entitlement: its slack limit is 0",
    tree: `
      / cpu 50
      └─ a  cpu reserve 10, slack demand 30`,
    capacity: { cpu: 50 },
    slackCpu: 0,
    pools: [pool("/a").reserve({ cpu: 10 }).slackDemand({ cpu: 30 })],
    // slack requirement min(0, 30) = 0: all 50 non-slack; no revocable cpu in the cluster.
    expect: [{ path: "/a", kind: "cpu", slack: 0, nonSlack: 50 }],
  },
  {
    name: "revocable cpu: allocation first, then demand by share, then the rest by share",
    tree: `
      / slack cpu 40
      ├─ a  slack allocation 5, slack demand 10
      ├─ b  slack demand 100, share 3
      └─ c`,
    capacity: { cpu: 100 },
    slackCpu: 40,
    pools: [
      pool("/a").slackAlloc({ cpu: 5 }).slackDemand({ cpu: 10 }),
      pool("/b").share(3).slackDemand({ cpu: 100 }),
      pool("/c"),
    ],
    // allocation: a 5, free 35; totalShare 1 + 3 + 1 = 5.
    // round 1 (35): a 1×35/5 = 7 (< 10), b 3×35/5 = 21; free 7.
    // round 2 (7): a 1.4, b 4.2; free 1.4 … a's 10 and b's 100 are never met; all 35
    // go out in the ratio 1 : 3 → a 5 + 8.75, b 26.25, c 0.
    expect: [
      { path: "/a", kind: "cpu", slack: 13.75 },
      { path: "/b", kind: "cpu", slack: 26.25 },
      { path: "/c", kind: "cpu", slack: 0 },
    ],
  },
  {
    name: "revocable cpu nobody asked for goes by cpu share, without a limit cap",
    tree: `
      / slack cpu 30
      ├─ a  limit 1, share 2
      └─ b  share 1`,
    capacity: { cpu: 100 },
    slackCpu: 30,
    pools: [pool("/a").limit({ cpu: 1 }).share(2), pool("/b")],
    // no demand: a 2×30/3 = 20 (its cpu limit 1 does not apply), b 10.
    expect: [
      { path: "/a", kind: "cpu", slack: 20 },
      { path: "/b", kind: "cpu", slack: 10 },
    ],
  },
  {
    name: "slack entitlement flows down: children divide their parent's",
    tree: `
      / slack cpu 40
      ├─ p
      │  ├─ x  slack demand 30
      │  └─ y
      └─ q`,
    capacity: { cpu: 100 },
    slackCpu: 40,
    pools: [pool("/p"), pool("/p/x").slackDemand({ cpu: 30 }), pool("/p/y"), pool("/q")],
    // root: p demand 30, round 1 p 20, round 2 (20): p 10 → 30 met; free 10 → p 5, q 5.
    // p 35: x 30 (met in rounds), y gets 2.5 of the 5 left, x 32.5.
    expect: [
      { path: "/p", kind: "cpu", slack: 35 },
      { path: "/q", kind: "cpu", slack: 5 },
      { path: "/p/x", kind: "cpu", slack: 32.5 },
      { path: "/p/y", kind: "cpu", slack: 2.5 },
    ],
  },
];

describe("revocable (slack) pass", () => {
  it.each(cases)("$name", (c) => {
    const { at } = entitle(cluster(c.capacity, c.pools, { cpu: c.slackCpu }));
    for (const e of c.expect) {
      const r = at(e.path);
      if (e.slack !== undefined)
        expect(r.slackEntitlement[e.kind], `${e.path} slack`).toBeCloseTo(e.slack, 2);
      if (e.nonSlack !== undefined) {
        expect(r.nonSlackEntitlement[e.kind], `${e.path} non-slack`).toBeCloseTo(e.nonSlack, 6);
      }
    }
  });

  it("the root's slack entitlement is the cluster's revocable cpu only", () => {
    const { at } = entitle(cluster({ cpu: 10 }, [pool("/a")], { cpu: 7, memory: 99 }));
    expect(at("/").slackEntitlement).toEqual({ cpu: 7, gpu: 0, memory: 0, disk: 0 });
  });
});
