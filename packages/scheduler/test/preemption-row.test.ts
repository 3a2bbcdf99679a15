/**
 * preemptionRowOf: real decisions from `decidePreemptions` (the engine's
 * builders) become the rows the history keeps.
 */

import {
  cycle,
  gang,
  leaf,
  placing,
  ready,
  running,
} from "@peloton/test-support/engine/preemption-builders.ts";
import { amounts } from "@peloton/test-support/storage/preemption-builders.ts";
import { describe, expect, it } from "vitest";
import { type PreemptionFacts, preemptedStateOf, preemptionRowOf } from "../src/index.ts";

const AT = new Date("2026-11-23T10:00:00Z");
const poolIds = new Map([
  ["/web", "pool-web"],
  ["/infra/batch", "pool-batch"],
  ["/ml", "pool-ml"],
]);
const facts = (over: Partial<PreemptionFacts> = {}): PreemptionFacts => ({
  victim: { jobName: "web-frontend", instanceId: 7, runId: 3, poolId: "pool-web" },
  poolIds,
  ...over,
});

describe("inter-pool", () => {
  //   /
  //   ├── web           over: cpu allocation 30 > entitlement 24 (excess 6)
  //   └── infra/batch   waits: demand 10, allocation 4 < entitlement 20
  const web = () => leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 });
  const batch = () =>
    leaf("/infra/batch").entitled({ cpu: 20 }).allocated({ cpu: 4 }).demand({ cpu: 10 });

  it("a running victim: killed (PREEMPTING), for the closest waiting pool, decided at their common ancestor", () => {
    const c = cycle({
      pools: [web(), batch()],
      tasks: [
        running("t-web-7").job("job-web").in("/web").priority(1).res({ cpu: 6, memory: 512 }),
      ],
    });
    const row = preemptionRowOf(c.decision("t-web-7"), facts(), AT);
    expect(row).toEqual({
      at: AT,
      kind: "INTER_POOL",
      victim: {
        taskId: "t-web-7",
        jobId: "job-web",
        jobName: "web-frontend",
        instanceId: 7,
        runId: 3,
        priority: 1,
        state: "RUNNING",
        stateAfter: "PREEMPTING",
        poolId: "pool-web",
        poolPath: "/web",
      },
      beneficiary: {
        poolId: "pool-batch",
        poolPath: "/infra/batch",
        gangId: null,
        task: null,
        priority: null,
      },
      level: "/",
      // The engine's words, naming the task as people read it.
      reason:
        "/web was over its cpu entitlement by 6 cores (allocation 30, entitlement 24) while " +
        "/infra/batch waited for 10 cores, decided at /; preempted running task web-frontend/7 " +
        "(priority 1), the lowest-priority, most recently started candidate left",
      numbers: {
        resourceClass: "NON_SLACK",
        rank: 1,
        allocation: amounts({ cpu: 30 }),
        entitlement: amounts({ cpu: 24 }),
        demand: amounts(),
        excess: amounts({ cpu: 6 }),
        remaining: amounts({ cpu: 6 }),
        victim: amounts({ cpu: 6, memory: 512 }),
        beneficiaries: [
          {
            pool: "/infra/batch",
            level: "/",
            demand: amounts({ cpu: 10 }),
            allocation: amounts({ cpu: 4 }),
            entitlement: amounts({ cpu: 20 }),
          },
        ],
        gang: null,
      },
    });
  });

  it("victims not yet running go back to PENDING; each row keeps what was still to free", () => {
    // Excess 6: READY r (2) first, then PLACING p (2), then the running one (4) of which 2 are needed.
    const c = cycle({
      pools: [web(), batch()],
      tasks: [
        running("t-run").in("/web").cpu(4).started(10),
        ready("t-ready").in("/web").cpu(2),
        placing("t-placing").in("/web").cpu(2),
      ],
    });
    const rows = c.decisions.map((d) => preemptionRowOf(d, facts(), AT));
    expect(
      rows.map((r) => [
        r.victim.taskId,
        r.victim.stateAfter,
        r.numbers.rank,
        r.numbers.remaining.cpu,
      ]),
    ).toEqual([
      ["t-ready", "PENDING", 1, 6],
      ["t-placing", "PENDING", 2, 4], // 6 − 2
      ["t-run", "PREEMPTING", 3, 2], // 4 − 2
    ]);
    expect(rows[0]!.reason).toContain(
      "sent admitted task web-frontend/7 (priority 0) back to PENDING",
    );
  });

  it("no pool waits (the entitlement shrank): no beneficiary and no level", () => {
    const c = cycle({ pools: [web()], tasks: [running("t").in("/web").cpu(6)] });
    const row = preemptionRowOf(c.decision("t"), facts(), AT);
    expect(row.beneficiary).toBeNull();
    expect(row.level).toBeNull();
    expect(row.numbers.beneficiaries).toEqual([]);
    expect(row.reason).toContain("no pool waits for it (the entitlement shrank)");
  });

  it("a revocable victim answers for the slack excess", () => {
    const c = cycle({
      pools: [
        leaf("/web").slackEntitled({ cpu: 2 }).slackAllocated({ cpu: 5 }),
        leaf("/ml").slackEntitled({ cpu: 8 }).slackDemand({ cpu: 3 }),
      ],
      tasks: [running("t").in("/web").cpu(3).revocableTask()],
    });
    const row = preemptionRowOf(c.decision("t"), facts(), AT);
    expect(row.numbers).toMatchObject({
      resourceClass: "SLACK",
      allocation: { cpu: 5 },
      entitlement: { cpu: 2 },
      excess: { cpu: 3 },
    });
    expect(row.beneficiary).toMatchObject({ poolPath: "/ml", poolId: "pool-ml" });
    expect(row.reason).toMatch(/^\/web was over its slack cpu entitlement by 3 cores/);
  });
});

describe("intra-pool", () => {
  //   /ml at its entitlement (gpu 4 of 4); gang g (priority 9, 2 GPUs) waits;
  //   running low (priority 1, 2 GPUs) makes room.
  const pool = () => leaf("/ml").entitled({ gpu: 4, cpu: 10 }).allocated({ gpu: 4, cpu: 2 });

  it("the beneficiary is the waiting gang, named by its first task; the level is the pool", () => {
    const c = cycle({
      pools: [pool()],
      tasks: [running("t-low").job("job-train").in("/ml").priority(1).res({ gpu: 2, cpu: 1 })],
      waiting: [gang("g").in("/ml").priority(9).res({ gpu: 2, cpu: 1 })],
    });
    const gangTask = { taskId: "g-0", jobId: "job-urgent", jobName: "train-urgent", instanceId: 0 };
    const row = preemptionRowOf(
      c.decision("t-low"),
      facts({ victim: { jobName: "train", instanceId: 2, runId: 1, poolId: "pool-ml" }, gangTask }),
      AT,
    );
    expect(row).toMatchObject({
      kind: "INTRA_POOL",
      victim: { poolPath: "/ml", stateAfter: "PREEMPTING", jobName: "train" },
      beneficiary: { poolId: "pool-ml", poolPath: "/ml", gangId: "g", task: gangTask, priority: 9 },
      level: "/ml",
      numbers: {
        gang: {
          gangId: "g",
          taskIds: ["g-0"],
          priority: 9,
          resources: amounts({ gpu: 2, cpu: 1 }),
        },
        // allocation 4 + gang 2 − entitlement 4
        excess: amounts({ gpu: 2 }),
        beneficiaries: [],
      },
    });
    expect(row.reason).toBe(
      "/ml was at its gpu entitlement (allocation 4, entitlement 4) while gang train-urgent/0 " +
        "(priority 9) waited for 2 GPUs; preempted running task train/2 (priority 1), the " +
        "lowest-priority, most recently started candidate below priority 9",
    );
  });

  it("a gang of several tasks is named by its first and how many more", () => {
    const c = cycle({
      pools: [pool()],
      tasks: [running("t-low").in("/ml").priority(1).res({ gpu: 2 })],
      waiting: [gang("g").in("/ml").priority(9).res({ gpu: 2 })],
    });
    const d = c.decision("t-low");
    if (d.kind !== "INTRA_POOL") throw new Error("expected an intra-pool decision");
    const three = { ...d, beneficiary: { ...d.beneficiary, taskIds: ["g-0", "g-1", "g-2"] } };
    const gangTask = { taskId: "g-0", jobId: "j", jobName: "urgent", instanceId: 0 };
    expect(preemptionRowOf(three, facts({ gangTask }), AT).reason).toContain(
      "gang urgent/0 and 2 more (priority 9)",
    );
    expect(() => preemptionRowOf(d, facts(), AT)).toThrow(/name its first task/);
  });
});

describe("preemptedStateOf", () => {
  it.each([
    { state: "RUNNING", to: "PREEMPTING" },
    { state: "READY", to: "PENDING" },
    { state: "PLACING", to: "PENDING" },
  ])("$state → $to", ({ state, to }) => {
    expect(preemptedStateOf(state)).toBe(to);
  });

  it.each(["PENDING", "KILLING", "SUCCEEDED"])("refuses %s: never a victim", (state) => {
    expect(() => preemptedStateOf(state)).toThrow(/never a preemption victim/);
  });
});
