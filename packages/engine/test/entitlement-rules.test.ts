/**
 * One named case per entitlement rule of peloton-semantics.md §1. Each case
 * draws its tree and carries the arithmetic of its expected numbers.
 */
import { describe, expect, it } from "vitest";
import { EPSILON, explanationOf, type ResourceKind } from "../src/index.ts";
import { cluster, entitle, type PoolBuilder, pool } from "./support/builders.ts";

interface Case {
  name: string;
  tree: string;
  capacity: number;
  pools: PoolBuilder[];
  kind?: ResourceKind;
  /** path → expected amount of `kind` (default cpu), to 6 decimals unless `digits`. */
  expect: Record<string, number>;
  digits?: number;
}

const cases: Case[] = [
  {
    name: "ELASTIC reservation: a pool gets only the part of its reservation it wants",
    tree: `
      / cpu 100
      ├─ a  reserve 40, demand 10, share 0
      └─ b  share 1`,
    capacity: 100,
    pools: [pool("/a").reserve({ cpu: 40 }).demand({ cpu: 10 }).share(0), pool("/b")],
    // a: min(want 10, reservation 40) = 10; free 100 − 10 = 90 goes to b by share (a has none).
    expect: { "/a": 10, "/b": 90 },
  },
  {
    name: "STATIC reservation: a pool keeps its whole reservation without demand",
    tree: `
      / cpu 100
      ├─ a  reserve 40 STATIC, share 0
      └─ b  share 1`,
    capacity: 100,
    pools: [pool("/a").reserve({ cpu: 40 }).static("cpu").share(0), pool("/b")],
    // a: reservation 40 regardless of want 0; free 60 to b.
    expect: { "/a": 40, "/b": 60 },
  },
  {
    name: "limit caps want: demand above the limit is not asked for",
    tree: `
      / cpu 100
      ├─ a  reserve 10, limit 30, demand 50
      └─ b  share 0`,
    capacity: 100,
    pools: [
      pool("/a").reserve({ cpu: 10 }).limit({ cpu: 30 }).demand({ cpu: 50 }),
      pool("/b").share(0),
    ],
    // want = min(50, 30) = 30; phase 1: 10, unmet 20; phase 2: min(1×90/1, 20) = 20 → 30;
    // phase 3: 30 + 70 = 100 capped at 30; the 70 removed goes to nobody (b has no share).
    expect: { "/a": 30, "/b": 0 },
  },
  {
    name: "demand cap: a pool's fair share stops at its unmet demand, the rest goes on",
    tree: `
      / cpu 100
      ├─ a  demand 10
      └─ b  demand 1000, limit 1000`,
    capacity: 100,
    pools: [pool("/a").demand({ cpu: 10 }), pool("/b").demand({ cpu: 1000 })],
    // round 1: a 1×100/2 = 50 → capped at 10; b 50. Rounds carry the rest to b until
    // free ≤ ε: b ≈ 90 (less the last sliver below ε).
    expect: { "/a": 10, "/b": 90 },
    digits: 2,
  },
  {
    name: "share ratios: free resources split 3 : 1 between two hungry pools",
    tree: `
      / cpu 100
      ├─ a  share 3, demand 1000
      └─ b  share 1, demand 1000`,
    capacity: 100,
    pools: [pool("/a").share(3).demand({ cpu: 1000 }), pool("/b").share(1).demand({ cpu: 1000 })],
    // round 1: a 3×100/4 = 75, b 1×100/4 = 25; nothing left.
    expect: { "/a": 75, "/b": 25 },
  },
  {
    name: "reservation first, then share: reserved amounts are not part of the share-out",
    tree: `
      / cpu 100
      ├─ a  reserve 50, demand 100
      └─ b  demand 100`,
    capacity: 100,
    pools: [pool("/a").reserve({ cpu: 50 }).demand({ cpu: 100 }), pool("/b").demand({ cpu: 100 })],
    // phase 1: a 50 (unmet 50), b 0 (unmet 100), free 50, totalShare 2;
    // round 1: a 25, b 25 → a 75, b 25.
    expect: { "/a": 75, "/b": 25 },
  },
  {
    name: "phase 3: what nobody asked for goes to everyone by share, capped by limit",
    tree: `
      / cpu 100
      ├─ a  share 1, limit 20
      └─ b  share 3`,
    capacity: 100,
    pools: [pool("/a").limit({ cpu: 20 }), pool("/b").share(3)],
    // S = 4: a 1×100/4 = 25 → capped at 20; b 3×100/4 = 75. The 5 removed is lost.
    expect: { "/a": 20, "/b": 75 },
  },
  {
    name: "reservations beyond the parent's entitlement are absorbed silently",
    tree: `
      / cpu 10
      ├─ a  reserve 8 STATIC
      └─ b  reserve 8 STATIC`,
    capacity: 10,
    pools: [pool("/a").reserve({ cpu: 8 }).static(), pool("/b").reserve({ cpu: 8 }).static()],
    // free: 10 − 8 = 2, then 2 − 8 clamps at 0: both keep 8 (16 > 10).
    expect: { "/a": 8, "/b": 8 },
  },
  {
    name: "ε clamp: free below 0.0009 after reservations is 0 and not shared",
    tree: `
      / cpu 10.0005
      ├─ a  reserve 10 STATIC
      └─ b  share 1`,
    capacity: 10.0005,
    pools: [pool("/a").reserve({ cpu: 10 }).static(), pool("/b")],
    // free 10.0005 − 10 = 0.0005 < ε → 0: phase 3 has nothing to give.
    expect: { "/a": 10, "/b": 0 },
  },
  {
    name: "a parent's demand is its children's sum and its own is ignored",
    tree: `
      / cpu 100
      ├─ p  (own demand 500, ignored)
      │  └─ x  demand 30
      └─ q  demand 1000`,
    capacity: 100,
    pools: [
      pool("/p").demand({ cpu: 500 }),
      pool("/p/x").demand({ cpu: 30 }),
      pool("/q").demand({ cpu: 1000 }),
    ],
    // p wants 30: round 1 p 50 → 30, q 50; rounds carry q to ≈ 70; x gets all of p.
    expect: { "/p": 30, "/p/x": 30, "/q": 70 },
    digits: 2,
  },
  {
    name: "guard: a round handing out nothing ends phase 2 (Peloton loops forever)",
    tree: `
      / cpu 100
      ├─ a  share 0, demand 50
      └─ b  share 1, demand 10`,
    capacity: 100,
    pools: [pool("/a").share(0).demand({ cpu: 50 }), pool("/b").demand({ cpu: 10 })],
    // totalShare 1: round 1 a 0, b 10; round 2 a 0 → stop. Phase 3: S = 1 → b + 90.
    expect: { "/a": 0, "/b": 100 },
  },
  {
    name: "guard: totalShare 0 offers nothing (Peloton divides 0 by 0)",
    tree: `
      / cpu 100
      └─ a  share 0, demand 50`,
    capacity: 100,
    pools: [pool("/a").share(0).demand({ cpu: 50 })],
    // v = 0 and phase 3 has S = 0: a keeps its reservation, 0.
    expect: { "/a": 0 },
  },
  {
    name: "kinds are independent: memory follows its own reservations and shares",
    tree: `
      / memory 1000
      ├─ a  memory reserve 600 STATIC, share 0
      └─ b  memory share 1, limit 300`,
    capacity: 1000,
    kind: "memory",
    pools: [
      pool("/a").reserve({ memory: 600 }).static("memory").share({ memory: 0 }),
      pool("/b").limit({ memory: 300 }),
    ],
    // a 600 (STATIC); free 400 → b by share, capped at 300; 100 lost.
    expect: { "/a": 600, "/b": 300 },
  },
];

describe("entitlement rules (peloton-semantics.md §1)", () => {
  it.each(cases)("$name", (c) => {
    const kind = c.kind ?? "cpu";
    const { at } = entitle(cluster({ [kind]: c.capacity }, c.pools));
    for (const [path, amount] of Object.entries(c.expect)) {
      expect(at(path).entitlement[kind], `${path} ${kind}`).toBeCloseTo(amount, c.digits ?? 6);
    }
  });
});

describe("phase 2 keeps Peloton's fixed totalShare", () => {
  /*
   *   / cpu 100
   *   ├─ a  share 3, demand 1
   *   └─ b  share 1, demand 100
   */
  const { at, result } = entitle(
    cluster({ cpu: 100 }, [
      pool("/a").share(3).demand({ cpu: 1 }),
      pool("/b").demand({ cpu: 100 }),
    ]),
    ["/b"],
  );
  const steps = explanationOf(result, "/b")?.cpu ?? [];

  it("round 1 offers b 1×100/4 = 25 though a (share 3) only takes 1", () => {
    expect(steps.find((s) => s.step === "share")).toEqual({
      step: "share",
      round: 1,
      amount: 25,
      of: 100,
      at: "/",
      share: 1,
      totalShare: 4,
    });
  });

  it("the rest carries over many rounds, each a quarter of what is left", () => {
    const carry = steps.find((s) => s.step === "share-carry");
    // Left after round 1: 74; each round takes 1/4: 74 × (3/4)^n < ε after ~40 rounds.
    expect(carry && carry.step === "share-carry" && carry.rounds).toBeGreaterThan(30);
  });

  it("b ends within ε of 99, short by the last sliver", () => {
    const b = at("/b").entitlement.cpu;
    expect(b).toBeLessThan(99);
    expect(99 - b).toBeLessThanOrEqual(EPSILON * 4);
  });
});
