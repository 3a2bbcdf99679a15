/**
 * The preemptor's snapshot from stored rows (pure), and the sustained
 * over-allocation rule across its ticks: usage as admission counts it,
 * allocation less what kills in flight give back, candidates, waiting gangs
 * in admission's drain order, SLA budgets; only a tick that starts a period
 * counts.
 */
import {
  decidePreemptions,
  type JobConfigInput,
  jobConfigSchema,
  type PreemptionPool,
  RESOURCE_KINDS,
  type TaskState,
  zeroResources,
} from "@peloton/engine";
import type { PoolStateUsage, PreemptorTaskRow } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import type { AdmittedTask } from "../src/resmgr/admitted-tasks.ts";
import { OverAllocationPeriods } from "../src/resmgr/over-allocation-periods.ts";
import type { LeafPoolNumbers } from "../src/resmgr/pool-entitlements.ts";
import {
  availabilityOf,
  enginePools,
  jobsWithBudgets,
  poolsToRead,
  preemptorSnapshot,
  usageOf,
  waitingGangs,
  withAdmittedInMemory,
} from "../src/resmgr/preemptor-input.ts";

const T0 = new Date("2026-11-23T12:00:00Z");
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const cpu = (n: number, memory = 0) => ({ ...zeroResources(), cpu: n, memory });

let seq = 0;
function task(
  jobId: string,
  instanceId: number,
  state: TaskState,
  over: Partial<PreemptorTaskRow> = {},
): PreemptorTaskRow {
  seq++;
  return {
    taskId: `${jobId}-${instanceId}`,
    jobId,
    jobName: jobId,
    instanceId,
    runId: 1,
    poolId: "pool-a",
    state,
    priority: 1,
    preemptible: true,
    revocable: false,
    controller: false,
    resources: cpu(1, 64),
    startedAt: state === "RUNNING" ? at(seq) : null,
    queuedAt: at(seq),
    clusterTaskId: state === "RUNNING" ? `${jobId}-${instanceId}-1` : null,
    agentId: state === "RUNNING" ? "agent-1" : null,
    ...over,
  };
}

/** The usage read (per pool, state and class) as PostgreSQL aggregates these task rows. */
function aggregate(rows: readonly PreemptorTaskRow[]): PoolStateUsage[] {
  const out = new Map<string, PoolStateUsage>();
  for (const r of rows) {
    const key = `${r.poolId} ${r.state} ${r.revocable}`;
    let u = out.get(key);
    if (!u) {
      u = {
        poolId: r.poolId,
        state: r.state,
        revocable: r.revocable,
        tasks: 0,
        resources: zeroResources(),
        minPreemptiblePriority: null,
      };
      out.set(key, u);
    }
    u.tasks++;
    for (const k of RESOURCE_KINDS) u.resources[k] += r.resources[k];
    if (r.preemptible)
      u.minPreemptiblePriority = Math.min(u.minPreemptiblePriority ?? Infinity, r.priority);
  }
  return [...out.values()];
}

const leaf = (id: string, path: string, entitlement: number): LeafPoolNumbers => ({
  poolId: id,
  path,
  nonSlackEntitlement: cpu(entitlement, 1_000_000),
  slackEntitlement: zeroResources(),
  // Room for every gang: one beyond its pool's bounds is never a waiting gang.
  reservation: { cpu: 1_000_000, gpu: 1_000_000, memory: 1_000_000, disk: 1_000_000 },
  controllerLimitPercent: null,
  limit: { cpu: Infinity, gpu: Infinity, memory: Infinity, disk: Infinity },
});

const pool = (path: string, entitlement: number, allocation: number): PreemptionPool => ({
  path,
  nonSlackEntitlement: cpu(entitlement, 1_000_000),
  slackEntitlement: zeroResources(),
  allocation: cpu(allocation),
  slackAllocation: zeroResources(),
  demand: zeroResources(),
  slackDemand: zeroResources(),
});

const config = (c: Partial<JobConfigInput> = {}) =>
  jobConfigSchema.parse({
    name: "j",
    instanceCount: 4,
    sla: { priority: 1, preemptible: true },
    defaultConfig: { resource: { cpuLimit: 1, memLimitMb: 64 }, command: { value: "x" } },
    ...c,
  });

describe("usage from the aggregate read", () => {
  it("counts PENDING as demand and every allocating state as allocation, revocable apart", () => {
    const rows = [
      task("a", 0, "PENDING"),
      task("a", 1, "READY"),
      task("a", 2, "RUNNING"),
      task("a", 3, "PREEMPTING"),
      task("b", 0, "RUNNING", { revocable: true, poolId: "pool-b" }),
      task("b", 1, "PENDING", { revocable: true, poolId: "pool-b" }),
    ];
    expect(usageOf(aggregate(rows))).toEqual([
      {
        poolId: "pool-a",
        demand: cpu(1, 64),
        allocation: cpu(3, 192),
        slackDemand: zeroResources(),
        slackAllocation: zeroResources(),
      },
      {
        poolId: "pool-b",
        demand: zeroResources(),
        allocation: zeroResources(),
        slackDemand: cpu(1, 64),
        slackAllocation: cpu(1, 64),
      },
    ]);
  });
});

describe("tasks admitted in the leader's memory", () => {
  const admittedOf = (t: PreemptorTaskRow): AdmittedTask => ({
    row: { ...t, reason: null, message: null, queuedAt: t.queuedAt ?? T0 },
    admittedAt: T0,
    message: "admitted",
  });
  const byKey = (rows: readonly PoolStateUsage[]) =>
    [...rows].sort((a, b) =>
      `${a.poolId} ${a.state} ${a.revocable}`.localeCompare(
        `${b.poolId} ${b.state} ${b.revocable}`,
      ),
    );

  it("count as READY (allocation waiting for a host), as if admission had written them", () => {
    const stored = [
      task("a", 0, "PENDING"),
      task("a", 1, "PENDING", { priority: 3 }),
      task("a", 2, "RUNNING"),
      task("b", 0, "PENDING", { revocable: true, poolId: "pool-b", priority: 2 }),
    ];
    const admitted = [stored[1]!, stored[3]!];
    const asIfWritten = stored.map((t) =>
      admitted.includes(t) ? { ...t, state: "READY" as const } : t,
    );
    expect(byKey(withAdmittedInMemory(aggregate(stored), admitted.map(admittedOf)))).toEqual(
      byKey(aggregate(asIfWritten)),
    );
  });

  it("leave the usage read as it is when there are none", () => {
    const usage = aggregate([task("a", 0, "PENDING")]);
    expect(withAdmittedInMemory(usage, [])).toEqual(usage);
  });
});

describe("allocation less what kills in flight give back", () => {
  it("takes PREEMPTING and KILLING tasks off their pool's allocation, so one excess is paid once", () => {
    const rows = [
      task("a", 0, "RUNNING"),
      task("a", 1, "PREEMPTING", { resources: cpu(2) }),
      task("a", 2, "KILLING"),
      task("a", 3, "PREEMPTING", { revocable: true }),
    ];
    const pools = [pool("/a", 2, 4), { ...pool("/b", 2, 2) }];
    const out = enginePools(
      [{ ...pools[0]!, slackAllocation: cpu(1) }, pools[1]!],
      aggregate(rows),
      new Map([["pool-a", "/a"]]),
    );
    expect(out[0]!.allocation.cpu).toBe(1);
    expect(out[0]!.slackAllocation.cpu).toBe(0);
    expect(out[1]).toEqual(pools[1]);
  });

  it("says what a pool's admitted tasks wait a host for (READY, PLACING, PLACED)", () => {
    const rows = [
      task("a", 0, "READY"),
      task("a", 1, "PLACED", { resources: cpu(2) }),
      task("a", 2, "LAUNCHING"),
      task("a", 3, "READY", { revocable: true }),
    ];
    const [a] = enginePools([pool("/a", 8, 5)], aggregate(rows), new Map([["pool-a", "/a"]]));
    expect(a!.allocation.cpu).toBe(5);
    expect(a!.unplaced?.cpu).toBe(3);
    expect(a!.slackUnplaced?.cpu).toBe(1);
  });

  it("then decides no second victim for an excess already being given back", () => {
    // /a: 4 held, entitlement 2; two victims chosen last cycle are still dying.
    const rows = [
      task("a", 0, "RUNNING"),
      task("a", 1, "RUNNING"),
      task("a", 2, "PREEMPTING"),
      task("a", 3, "PREEMPTING"),
    ];
    const pathOf = new Map([["pool-a", "/a"]]);
    const snapshot = preemptorSnapshot({
      pools: enginePools([pool("/a", 2, 4)], aggregate(rows), pathOf),
      waiting: [],
      candidates: rows.filter((r) => r.state === "RUNNING"),
      pending: [],
      pathOf,
      poolIds: new Map([["/a", "pool-a"]]),
      availability: {},
    });
    const result = decidePreemptions({
      ...snapshot.input,
      overAllocationCounts: {},
      sustainedCount: 1,
    });
    expect(result.ok && result.decisions).toEqual([]);
    // Without the kills in flight it would take two more.
    const naive = decidePreemptions({
      ...snapshot.input,
      pools: [pool("/a", 2, 4)],
      overAllocationCounts: {},
      sustainedCount: 1,
    });
    expect(naive.ok && naive.decisions.length).toBe(2);
  });
});

describe("the snapshot", () => {
  it("offers READY, PLACING and RUNNING tasks of leaf pools as candidates, with when they started", () => {
    const candidates = [
      task("a", 0, "RUNNING"),
      task("a", 1, "READY"),
      task("x", 0, "RUNNING", { poolId: "not-a-leaf" }),
    ];
    const pending = [task("a", 3, "PENDING")];
    const leaves = new Map([["pool-a", leaf("pool-a", "/a", 4)]]);
    const s = preemptorSnapshot({
      pools: [pool("/a", 4, 3)],
      waiting: waitingGangs(pending, leaves, new Map([["a", config()]])),
      candidates,
      pending,
      pathOf: new Map([["pool-a", "/a"]]),
      poolIds: new Map([["/a", "pool-a"]]),
      availability: {},
    });
    expect(s.input.tasks.map((t) => `${t.taskId} ${t.state} ${t.pool}`)).toEqual([
      "a-0 RUNNING /a",
      "a-1 READY /a",
    ]);
    expect(s.input.tasks[0]!.startedAt).toBe(candidates[0]!.startedAt!.getTime());
    expect(s.input.tasks[1]).not.toHaveProperty("startedAt");
    // Every row read is kept for the decisions' facts.
    expect([...s.tasks.keys()].sort()).toEqual(["a-0", "a-1", "a-3", "x-0"]);
    expect(s.input.waiting?.map((g) => g.gangId)).toEqual(["a/3"]);
  });

  it("lists waiting gangs as admission drains them: non-preemptible first, then by priority, then arrival", () => {
    const leaves = new Map([["pool-a", leaf("pool-a", "/a", 4)]]);
    const configs = new Map([
      ["low", config({ sla: { priority: 1, preemptible: true } })],
      ["high", config({ sla: { priority: 9, preemptible: true } })],
      ["np", config({ sla: { priority: 0, preemptible: false } })],
      [
        "gang",
        config({
          instanceCount: 3,
          sla: { priority: 5, preemptible: true, minimumRunningInstances: 2 },
        }),
      ],
    ]);
    const gangs = waitingGangs(
      [
        task("low", 0, "PENDING", { queuedAt: at(1) }),
        task("high", 0, "PENDING", { priority: 9, queuedAt: at(3) }),
        task("high", 1, "PENDING", { priority: 9, queuedAt: at(2) }),
        task("np", 0, "PENDING", { priority: 0, preemptible: false, queuedAt: at(4) }),
        task("gang", 0, "PENDING", { priority: 5, queuedAt: at(5) }),
        task("gang", 1, "PENDING", { priority: 5, queuedAt: at(5) }),
        task("gang", 2, "PENDING", { priority: 5, queuedAt: at(6) }),
      ],
      leaves,
      configs,
    );
    expect(gangs.map((g) => `${g.gangId} p${g.priority} ${g.resources.cpu}`)).toEqual([
      "np/0 p0 1",
      "high/1 p9 1",
      "high/0 p9 1",
      "gang/0-1 p5 2",
      "gang/2 p5 1",
      "low/0 p1 1",
    ]);
    expect(gangs[3]!.taskIds).toEqual(["gang-0", "gang-1"]);
    expect(gangs.every((g) => g.pool === "/a")).toBe(true);
  });

  it("leaves out a gang that could never fit: killing for it would free room it cannot use", () => {
    const leaves = new Map([["pool-a", leaf("pool-a", "/a", 4)]]);
    const configs = new Map([
      ["huge", config({ sla: { priority: 9, preemptible: true } })],
      ["ok", config({ sla: { priority: 1, preemptible: true } })],
    ]);
    const pending = [
      task("huge", 0, "PENDING", { priority: 9, queuedAt: at(1) }),
      task("ok", 0, "PENDING", { queuedAt: at(2) }),
    ];
    // The only host has half a core: no task of 1 core ever fits on it.
    const cluster = {
      capacity: cpu(0.5, 8192),
      hosts: [{ resources: cpu(0.5, 8192), ports: 0, hosts: 1 }],
    };
    expect(waitingGangs(pending, leaves, configs).map((g) => g.gangId)).toEqual(["huge/0", "ok/0"]);
    expect(waitingGangs(pending, leaves, configs, cluster)).toEqual([]);
    const roomy = {
      capacity: cpu(4, 8192),
      hosts: [{ resources: cpu(4, 8192), ports: 0, hosts: 1 }],
    };
    expect(waitingGangs(pending, leaves, configs, roomy).map((g) => g.gangId)).toEqual([
      "huge/0",
      "ok/0",
    ]);
  });
});

describe("which pools' candidates are read", () => {
  const poolIds = new Map([
    ["/a", "pool-a"],
    ["/b", "pool-b"],
    ["/c", "pool-c"],
  ]);
  const pathOf = new Map([...poolIds].map(([path, id]) => [id, path]));
  const gang = (pool: string, priority: number, revocable = false) => ({
    gangId: `${pool}-${priority}`,
    pool,
    priority,
    revocable,
    resources: cpu(1),
    taskIds: [],
  });

  it("reads the due pools, and those where a waiting gang outranks a preemptible task of its class", () => {
    const rows = [
      task("a", 0, "RUNNING", { priority: 3 }),
      task("b", 0, "RUNNING", { priority: 5, poolId: "pool-b" }),
      task("b", 1, "RUNNING", { priority: 1, preemptible: false, poolId: "pool-b" }),
      task("c", 0, "RUNNING", { priority: 2, poolId: "pool-c", revocable: true }),
    ];
    const read = (due: string[], waiting: ReturnType<typeof gang>[]) =>
      poolsToRead({ due, waiting, usage: aggregate(rows), poolIds, pathOf }).sort();
    expect(read([], [])).toEqual([]);
    expect(read(["/b"], [])).toEqual(["pool-b"]);
    // /a: priority 4 outranks its priority-3 task; 3 does not.
    expect(read([], [gang("/a", 4)])).toEqual(["pool-a"]);
    expect(read([], [gang("/a", 3)])).toEqual([]);
    // /b: its priority-1 task is not preemptible; the preemptible one is priority 5.
    expect(read([], [gang("/b", 4)])).toEqual([]);
    // /c: only revocable candidates, for revocable gangs.
    expect(read([], [gang("/c", 9)])).toEqual([]);
    expect(read([], [gang("/c", 9, true)])).toEqual(["pool-c"]);
  });
});

describe("SLA budgets", () => {
  const configs = new Map([
    [
      "svc",
      config({ type: "SERVICE", sla: { preemptible: true, maximumUnavailableInstances: 1 } }),
    ],
    ["batch", config()],
  ]);

  it("reads budgets only for jobs with running preemptible tasks and a limit", () => {
    expect(
      jobsWithBudgets(
        [
          task("svc", 0, "RUNNING"),
          task("svc", 1, "RUNNING"),
          task("batch", 0, "RUNNING"),
          task("svc2", 0, "READY"),
        ],
        configs,
      ),
    ).toEqual(["svc"]);
  });

  it("counts instances not running as unavailable; 0 means no limit", () => {
    expect(
      availabilityOf(configs, [
        { jobId: "svc", instanceCount: 4, running: 3 },
        { jobId: "batch", instanceCount: 4, running: 1 },
      ]),
    ).toEqual({ svc: { maximumUnavailableInstances: 1, unavailableInstances: 1 } });
  });
});

describe("sustained over-allocation across ticks", () => {
  it("counts one period per period, however often the loop is kicked in between", () => {
    const periods = new OverAllocationPeriods(10_000, 3);
    const over = { "/a": 1 };
    const tick = (s: number, counts: Record<string, number>) => {
      const step = periods.step(s * 1000);
      periods.settle(step, s * 1000, step.counting ? counts : { "/a": 99 }, {});
      return step;
    };
    expect(tick(0, over)).toMatchObject({ counting: true, sustainedCount: 3 });
    // Kicked between periods: no pool can become due, the counts stay.
    const between = tick(4, { "/a": 2 });
    expect(between.counting).toBe(false);
    expect(between.sustainedCount).toBe(Number.MAX_SAFE_INTEGER);
    expect(between.overAllocationCounts).toEqual({ "/a": 1 });
    expect(periods.current()).toEqual({ "/a": 1 });
    expect(tick(10, { "/a": 2 }).counting).toBe(true);
    expect(periods.current()).toEqual({ "/a": 2 });
    expect(tick(19.999, { "/a": 3 }).counting).toBe(false);
    expect(tick(20, { "/a": 0 })).toMatchObject({
      counting: true,
      overAllocationCounts: { "/a": 2 },
    });
    expect(periods.current()).toEqual({ "/a": 0 });
  });

  it("makes a pool due only after the sustained count of periods, with the engine", () => {
    const periods = new OverAllocationPeriods(1_000, 2);
    const input = {
      pools: [pool("/a", 2, 3)],
      tasks: [
        {
          taskId: "t",
          jobId: "j",
          pool: "/a",
          state: "RUNNING",
          priority: 1,
          preemptible: true,
          revocable: false,
          resources: cpu(1),
        },
      ],
      jobs: {},
    };
    const cycle = (ms: number) => {
      const step = periods.step(ms);
      const r = decidePreemptions({
        ...input,
        overAllocationCounts: step.overAllocationCounts,
        sustainedCount: step.sustainedCount,
      });
      if (!r.ok) throw new Error("refused");
      periods.settle(step, ms, r.overAllocationCounts, r.entitlementBaselines);
      return r.decisions.length;
    };
    expect(cycle(0)).toBe(0); // 1st period over
    expect(cycle(200)).toBe(0); // kicked: not a period
    expect(cycle(400)).toBe(0);
    expect(cycle(1_000)).toBe(1); // 2nd period over: due
    expect(cycle(2_000)).toBe(0); // processed: counting starts again
  });

  it("keeps each pool's entitlement baseline across periods: the pool that took it is named", () => {
    //   period 0: /a holds 8 of its entitlement 8, /b wants nothing
    //   period 1 on: /b's demand took 4 (/a 8 → 4, /b 0 → 4) and runs elsewhere
    const periods = new OverAllocationPeriods(1_000, 2);
    const task = {
      taskId: "t",
      jobId: "j",
      pool: "/a",
      state: "RUNNING",
      priority: 1,
      preemptible: true,
      revocable: false,
      resources: cpu(4),
    };
    const cycle = (ms: number, pools: PreemptionPool[]) => {
      const step = periods.step(ms);
      const r = decidePreemptions({
        pools,
        tasks: [task],
        jobs: {},
        overAllocationCounts: step.overAllocationCounts,
        entitlementBaselines: step.entitlementBaselines,
        sustainedCount: step.sustainedCount,
      });
      if (!r.ok) throw new Error("refused");
      periods.settle(step, ms, r.overAllocationCounts, r.entitlementBaselines);
      return r.decisions;
    };
    const after = [pool("/a", 4, 8), pool("/b", 4, 4)];
    expect(cycle(0, [pool("/a", 8, 8), pool("/b", 0, 0)])).toEqual([]);
    expect(cycle(1_000, after)).toEqual([]); // 1st period over
    expect(cycle(1_500, after)).toEqual([]); // kicked between periods: the baseline stays
    const [d] = cycle(2_000, after); // 2nd period over: due
    expect(
      d?.kind === "INTER_POOL" && d.beneficiaries.map((b) => [b.pool, b.entitlementBefore?.cpu]),
    ).toEqual([["/b", 0]]);
  });
});
