/**
 * Inter-pool preemption (peloton-semantics.md §4): sustained over-allocation,
 * the excess, the walk down the ranked candidates, the SLA, and who it was
 * for. Each case draws its pools; numbers carry their arithmetic.
 */

import {
  cycle,
  cycleInput,
  inState,
  leaf,
  placing,
  ready,
  running,
} from "@peloton/test-support/engine/preemption-builders.ts";
import { describe, expect, it } from "vitest";
import {
  advanceOverAllocation,
  decidePreemptions,
  describePreemption,
  describePreemptionInputError,
  lowestCommonAncestor,
} from "../src/index.ts";

describe("sustained over-allocation (state passed in, returned)", () => {
  //   /a  over (cpu allocation 12 > entitlement 10)
  //   /b  within
  const pools = [
    leaf("/a").entitled({ cpu: 10 }).allocated({ cpu: 12 }).build(),
    leaf("/b").entitled({ cpu: 10 }).allocated({ cpu: 5 }).build(),
  ];
  it.each([
    {
      name: "first period over: counts 1, not due yet",
      prev: {},
      counts: { "/a": 1, "/b": 0 },
      due: [],
    },
    {
      name: "reaches the count: due, and the count restarts",
      prev: { "/a": 2 },
      counts: { "/a": 0, "/b": 0 },
      due: ["/a"],
    },
    {
      name: "a pool no longer over restarts at 0",
      prev: { "/a": 2, "/b": 2 },
      counts: { "/a": 0, "/b": 0 },
      due: ["/a"],
    },
    {
      name: "pools no longer listed are forgotten",
      prev: { "/gone": 2 },
      counts: { "/a": 1, "/b": 0 },
      due: [],
    },
  ])("$name", ({ prev, counts, due }) => {
    const step = advanceOverAllocation(pools, prev as Record<string, number>, 3);
    expect(step.counts).toEqual(counts);
    expect(step.due.map((d) => d.pool.path)).toEqual(due);
  });

  it("slack allocation over slack entitlement counts too", () => {
    const p = leaf("/a").slackEntitled({ cpu: 2 }).slackAllocated({ cpu: 3 }).build();
    expect(advanceOverAllocation([p], {}, 1).due.map((d) => d.excess.slack.cpu)).toEqual([1]);
  });

  it("an excess below ε is no excess", () => {
    const p = leaf("/a").entitled({ cpu: 10 }).allocated({ cpu: 10.0005 }).build();
    expect(advanceOverAllocation([p], {}, 1).counts).toEqual({ "/a": 0 });
  });

  it("the decision returns the next counts; nothing is preempted before the count", () => {
    const c = cycle({
      pools: [leaf("/a").entitled({ cpu: 10 }).allocated({ cpu: 12 })],
      tasks: [running("t").in("/a").cpu(2)],
      sustained: 3,
      counts: { "/a": 1 },
    });
    expect(c.overAllocationCounts).toEqual({ "/a": 2 });
    expect(c.decisions).toEqual([]);
  });
});

describe("the walk: victims in order until the excess is covered", () => {
  it.each([
    {
      name: "lowest priority, most recent first, until covered",
      pools: `
        /web  cpu entitlement 24, allocation 30 → excess 6`,
      tasks: [
        running("p2-old").in("/web").priority(2).cpu(4).started(100),
        running("p1-old").in("/web").priority(1).cpu(4).started(100),
        running("p1-new").in("/web").priority(1).cpu(4).started(200),
      ],
      // p1-new frees 4 (2 left), p1-old frees 4 (covered); p2-old stays.
      want: ["p1-new", "p1-old"],
    },
    {
      name: "READY and PLACING go before RUNNING",
      pools: `
        /web  excess 6`,
      tasks: [
        running("run").in("/web").cpu(4),
        placing("plc").in("/web").priority(9).cpu(2),
        ready("rdy").in("/web").priority(9).cpu(2),
      ],
      // rdy 2 (4 left), plc 2 (2 left), run 4 (covered)
      want: ["rdy", "plc", "run"],
    },
    {
      name: "a task that frees none of the kinds in excess is skipped",
      pools: `
        /web  excess 6 cpu only`,
      tasks: [
        running("mem-only").in("/web").res({ memory: 4096 }),
        running("cpu").in("/web").priority(1).cpu(6),
      ],
      want: ["cpu"],
    },
    {
      name: "non-preemptible and PENDING tasks are never victims",
      pools: `
        /web  excess 6`,
      tasks: [
        running("keep").in("/web").cpu(10).notPreemptible(),
        inState("pending", "PENDING").in("/web").cpu(10),
        running("ok").in("/web").priority(5).cpu(2),
      ],
      want: ["ok"],
    },
    {
      name: "tasks of other pools are never victims",
      pools: `
        /web  excess 6`,
      tasks: [running("other").in("/batch").cpu(10), running("mine").in("/web").cpu(6)],
      want: ["mine"],
    },
  ])("$name", ({ tasks, want }) => {
    const c = cycle({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 }), leaf("/batch")],
      tasks,
    });
    expect(c.victims()).toEqual(want);
  });

  it("revocable tasks answer for the slack excess, non-revocable ones for the non-slack excess", () => {
    //   /web  non-slack: entitlement 24, allocation 26 → 2;  slack: entitlement 4, allocation 7 → 3
    const c = cycle({
      pools: [
        leaf("/web")
          .entitled({ cpu: 24 })
          .allocated({ cpu: 26 })
          .slackEntitled({ cpu: 4 })
          .slackAllocated({ cpu: 7 }),
      ],
      tasks: [
        running("n1").in("/web").cpu(2),
        running("n2").in("/web").cpu(2).started(1),
        running("r1").in("/web").cpu(3).revocableTask(),
        running("r2").in("/web").cpu(3).revocableTask().started(1),
      ],
    });
    // revocable first: r1 (never started → most recent) covers 3; then n1 covers 2.
    expect(c.victims()).toEqual(["r1", "n1"]);
    expect(c.decision("r1")).toMatchObject({
      resourceClass: "SLACK",
      numbers: { excess: { cpu: 3 } },
    });
    expect(c.decision("n1")).toMatchObject({
      resourceClass: "NON_SLACK",
      numbers: { excess: { cpu: 2 } },
    });
  });

  it("not enough candidates: what is left uncovered is reported", () => {
    const c = cycle({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 })],
      tasks: [running("a").in("/web").cpu(2), running("b").in("/web").cpu(1).notPreemptible()],
    });
    expect(c.victims()).toEqual(["a"]);
    expect(c.pools).toEqual([
      {
        pool: "/web",
        count: 1,
        nonSlackExcess: { cpu: 6, gpu: 0, memory: 0, disk: 0 },
        slackExcess: { cpu: 0, gpu: 0, memory: 0, disk: 0 },
        nonSlackUncovered: { cpu: 4, gpu: 0, memory: 0, disk: 0 },
        slackUncovered: { cpu: 0, gpu: 0, memory: 0, disk: 0 },
        victims: 1,
        skippedForSla: [],
      },
    ]);
  });

  it("each decision carries the numbers and what was left to free when it was chosen", () => {
    const c = cycle({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 }).demand({ cpu: 1 })],
      tasks: [running("a").in("/web").cpu(4), running("b").in("/web").cpu(4).started(1)],
    });
    expect(c.decision("b")).toMatchObject({
      kind: "INTER_POOL",
      pool: "/web",
      rank: 2,
      numbers: {
        allocation: { cpu: 30 },
        entitlement: { cpu: 24 },
        demand: { cpu: 1 },
        excess: { cpu: 6 },
      },
      remaining: { cpu: 2 }, // 6 − 4 freed by a
    });
  });
});

describe("services keep their SLA", () => {
  it("at most maximumUnavailableInstances down at once, counting those already down", () => {
    //   /web  excess 6; job svc allows 2 unavailable and has 1 down already
    const c = cycle({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 })],
      tasks: [
        running("svc-1").in("/web").job("svc").cpu(2).started(3),
        running("svc-2").in("/web").job("svc").cpu(2).started(2),
        running("batch-1").in("/web").job("batch").priority(1).cpu(2),
        running("batch-2").in("/web").job("batch").priority(1).cpu(2).started(1),
      ],
      jobs: { svc: { maximumUnavailableInstances: 2, unavailableInstances: 1 } },
    });
    // svc-1 (1 + 1 = 2 ≤ 2) yes, svc-2 (3 > 2) skipped, then batch-1, batch-2.
    expect(c.victims()).toEqual(["svc-1", "batch-1", "batch-2"]);
    expect(c.pools[0]!.skippedForSla).toEqual(["svc-2"]);
  });

  it("a READY or PLACING instance was not running: taking it costs no availability", () => {
    const c = cycle({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 })],
      tasks: [
        ready("svc-r").in("/web").job("svc").cpu(2),
        placing("svc-p").in("/web").job("svc").cpu(2),
        running("svc-1").in("/web").job("svc").cpu(2),
      ],
      jobs: { svc: { maximumUnavailableInstances: 1, unavailableInstances: 0 } },
    });
    expect(c.victims()).toEqual(["svc-r", "svc-p", "svc-1"]);
  });
});

describe("who it was for, and at which level", () => {
  //   /
  //   ├─ infra
  //   │  ├─ batch    waits: demand 10, allocation 5 < entitlement 15
  //   │  └─ web      over: allocation 30 > entitlement 24
  //   ├─ research   waits: demand 4, allocation 0 < entitlement 8
  //   └─ idle       demand 0 (not waiting)
  const pools = [
    leaf("/infra/batch").entitled({ cpu: 15 }).allocated({ cpu: 5 }).demand({ cpu: 10 }),
    leaf("/infra/web").entitled({ cpu: 24 }).allocated({ cpu: 30 }),
    leaf("/research").entitled({ cpu: 8 }).demand({ cpu: 4 }),
    leaf("/idle").entitled({ cpu: 8 }),
  ];
  const tasks = [running("w1").in("/infra/web").priority(1).cpu(6).started(5)];

  it("beneficiaries, closest first; the level is their common ancestor", () => {
    const d = cycle({ pools, tasks }).decision("w1");
    if (d.kind !== "INTER_POOL") throw new Error("inter-pool expected");
    expect(d.beneficiaries.map((b) => [b.pool, b.level])).toEqual([
      ["/infra/batch", "/infra"],
      ["/research", "/"],
    ]);
    expect(d.level).toBe("/infra");
    expect(describePreemption(d)).toBe(
      "/infra/web was over its cpu entitlement by 6 cores (allocation 30, entitlement 24) " +
        "while /infra/batch waited for 10 cores, decided at /infra; preempted running task w1 " +
        "(priority 1), the lowest-priority, most recently started candidate left",
    );
  });

  it("a pool admitted up to its entitlement whose tasks wait for a host benefits: it waits for their room", () => {
    //   /a  over: allocation 8 > entitlement 4
    //   /b  allocation 4 = entitlement 4, all of it admitted and unplaced (no host free)
    const c = cycle({
      pools: [
        leaf("/a").entitled({ cpu: 4 }).allocated({ cpu: 8 }),
        leaf("/b").entitled({ cpu: 4 }).allocated({ cpu: 4 }).unplaced({ cpu: 4 }),
        leaf("/c").entitled({ cpu: 4 }).allocated({ cpu: 4 }),
      ],
      tasks: [running("t").in("/a").cpu(4)],
    });
    const d = c.decision("t");
    if (d.kind !== "INTER_POOL") throw new Error("inter-pool expected");
    // It holds nothing on hosts and waits for its 4 admitted cores; /c waits for nothing.
    expect(d.beneficiaries).toEqual([
      expect.objectContaining({
        pool: "/b",
        level: "/",
        allocation: expect.objectContaining({ cpu: 0 }),
        demand: expect.objectContaining({ cpu: 4 }),
        entitlement: expect.objectContaining({ cpu: 4 }),
      }),
    ]);
    expect(describePreemption(d)).toMatch(/while \/b waited for 4 cores, decided at \//);
  });

  it("a pool waiting only for kinds not in excess does not benefit", () => {
    const c = cycle({
      pools: [
        leaf("/a").entitled({ memory: 100 }).demand({ memory: 50 }),
        leaf("/b").entitled({ cpu: 24 }).allocated({ cpu: 30 }),
      ],
      tasks: [running("t").in("/b").cpu(6)],
    });
    const d = c.decision("t");
    expect(d.kind === "INTER_POOL" && d.beneficiaries).toEqual([]);
    expect(d.level).toBeNull();
    expect(describePreemption(d)).toBe(
      "/b was over its cpu entitlement by 6 cores (allocation 30, entitlement 24); no pool waits " +
        "for it (the entitlement shrank); preempted running task t (priority 0), the " +
        "lowest-priority, most recently started candidate left",
    );
  });

  it.each([
    { a: "/infra/batch", b: "/infra/web", want: "/infra" },
    { a: "/infra/batch", b: "/research", want: "/" },
    { a: "/a/b/c", b: "/a/b/d", want: "/a/b" },
    { a: "/a/bc", b: "/a/b", want: "/a" },
  ])("lowestCommonAncestor($a, $b) = $want", ({ a, b, want }) =>
    expect(lowestCommonAncestor(a, b)).toBe(want),
  );

  it("READY and PLACING victims are sent back, in words", () => {
    const c = cycle({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 })],
      tasks: [ready("r").in("/web").cpu(3), placing("p").in("/web").cpu(3)],
    });
    expect(describePreemption(c.decision("r"))).toContain(
      "sent admitted task r (priority 0) back to PENDING",
    );
    expect(describePreemption(c.decision("p"))).toContain(
      "sent task p (priority 0) back to PENDING while it was being placed",
    );
  });
});

describe("a pure decision", () => {
  it("the input is not changed", () => {
    const input = cycleInput({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 })],
      tasks: [running("a").in("/web").cpu(6)],
    });
    const before = structuredClone(input);
    decidePreemptions(input);
    expect(input).toEqual(before);
  });

  it("bad input is refused whole, each problem named", () => {
    const input = cycleInput({
      pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 }), leaf("/web")],
      tasks: [running("a").in("/web").cpu(-1)],
      sustained: 1,
    });
    const result = decidePreemptions({
      ...input,
      sustainedCount: 0,
      waiting: [
        {
          gangId: "g",
          pool: "/nowhere",
          priority: 1,
          revocable: false,
          resources: { cpu: 1, gpu: 0, memory: 0, disk: 0 },
          taskIds: [],
        },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(describePreemptionInputError)).toEqual([
      "sustainedCount must be a whole number ≥ 1 (got 0)",
      "pool /web is listed twice",
      "gang g: pool /nowhere is not among the pools",
    ]);
  });

  it("a task of a pool being decided on with a bad amount is refused", () => {
    const result = decidePreemptions(
      cycleInput({
        pools: [leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 })],
        tasks: [running("a").in("/web").cpu(Number.NaN)],
      }),
    );
    expect(result.ok ? [] : result.errors).toEqual([
      {
        code: "INVALID_AMOUNT",
        subject: "task",
        id: "a",
        field: "resources.cpu",
        value: Number.NaN,
      },
    ]);
  });
});
