/**
 * The preemptor running for real, on mesos-sim with the whole scheduler
 * (admission, placement, kills, status updates, goal states) and PostgreSQL:
 *
 *   inter-pool  pools /a and /b share the cluster 1:1; /a fills it; /b
 *               submits work; /a's tasks are preempted, after the sustained
 *               count of periods, until both sit at their entitlements; the
 *               stored numbers are the engine's on the snapshot it read
 *   intra-pool  a priority-10 task takes the room of a priority-1 task of its
 *               own pool; the pool's non-preemptible (and lowest-priority)
 *               job is never touched
 *   SLA         a service that allows 1 instance down loses 1 at a time,
 *               however far its pool is over
 *
 * Tasks are simulated (they run until killed). Waits poll with timeouts.
 */
import { decidePreemptions, type JobConfigInput } from "@peloton/engine";
import { SIM_DURATION_KEY } from "@peloton/mesos";
import type { PreemptionRecord } from "@peloton/storage";
import {
  agent,
  eventsOf,
  leafPool,
  startSystem,
  submit,
  tasksOf,
} from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type PreemptorCycle, rowOf } from "../src/resmgr/preemptor-loop.ts";
import { calculateSnapshot, numbersOf } from "../src/resmgr/respool/entitlements.ts";
import { loadPoolSnapshot } from "../src/resmgr/respool/snapshot.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const PERIOD_MS = 300;
const SUSTAINED = 3;

/** The leader's loops with a fast preemptor, and every cycle it decided, in order. */
async function system(agents: number) {
  const cycles: PreemptorCycle[] = [];
  await startSystem(
    Array.from({ length: agents }, (_, i) => agent(`a${i + 1}.test`)),
    {},
    {
      preemption: {
        periodMs: PERIOD_MS,
        sustainedPeriods: SUSTAINED,
        minIntervalMs: 100,
        onCycle: (c) => cycles.push(c),
      },
    },
  );
  return cycles;
}

/** A pool that may use up to `cpu` cores, nothing reserved but what `reserved` says. */
function pool(cpu: number, reserved = { cpu: 0, memory: 0, disk: 0 }) {
  return {
    cpu: { reservation: reserved.cpu, limit: cpu, share: 1 },
    memory: { reservation: reserved.memory, limit: 65_536, share: 1 },
    disk: { reservation: reserved.disk, limit: 100_000, share: 1 },
    gpu: { reservation: 0, limit: 0, share: 1 },
  };
}

/** Tasks of 1 core that run until killed. */
function job(
  name: string,
  instances: number,
  sla: JobConfigInput["sla"],
  extra: Partial<JobConfigInput> = {},
): JobConfigInput {
  return {
    name,
    instanceCount: instances,
    sla,
    labels: [{ key: SIM_DURATION_KEY, value: "600000" }],
    defaultConfig: {
      resource: { cpuLimit: 1, memLimitMb: 64 },
      command: { value: "sleep 600" },
    },
    ...extra,
  };
}

const count = (states: string[], state: string) => states.filter((s) => s === state).length;

async function statesBy(jobId: string): Promise<string[]> {
  return (await tasksOf(jobId)).map((t) => t.state);
}

async function preemptionsOf(jobId: string): Promise<PreemptionRecord[]> {
  return (await gateway.preemptions.list({ jobId, limit: 100 })).items;
}

/**
 * The acceptance check: the engine, asked again on the snapshot the loop
 * read, decides the same victims with the same numbers and words as the
 * stored rows.
 */
function expectStoredAsDecided(cycle: PreemptorCycle, stored: readonly PreemptionRecord[]) {
  const again = decidePreemptions({
    ...cycle.snapshot.input,
    overAllocationCounts: cycle.overAllocationCounts,
    entitlementBaselines: cycle.entitlementBaselines,
    sustainedCount: cycle.sustainedCount,
  });
  if (!again.ok) throw new Error("the engine refused the loop's own snapshot");
  const { tasks, poolIds } = cycle.snapshot;
  const expected = again.decisions.map((d) => rowOf(d, tasks, poolIds, cycle.at));
  const recorded = new Set(cycle.outcome.recorded.map((r) => r.taskId));
  const mine = stored.filter((s) => recorded.has(s.victim.taskId) && +s.at === +cycle.at);
  expect(mine.length).toBe(recorded.size);
  for (const s of mine) {
    const e = expected.find((x) => x.victim.taskId === s.victim.taskId);
    expect(e, `the engine chose ${s.victim.jobName}/${s.victim.instanceId} again`).toBeDefined();
    expect(s.kind).toBe(e!.kind);
    expect(s.numbers).toEqual(e!.numbers);
    expect(s.reason).toBe(e!.reason);
    expect(s.level).toBe(e!.level);
    expect(s.beneficiary?.poolPath ?? null).toBe(e!.beneficiary?.poolPath ?? null);
  }
}

async function poolNumbers(path: string) {
  const snapshot = await loadPoolSnapshot(gateway);
  const n = numbersOf(calculateSnapshot(snapshot), path);
  return { allocation: n.allocation.cpu, entitlement: n.nonSlackEntitlement.cpu };
}

describe("the preemptor on mesos-sim", () => {
  it("inter-pool: /a filled the cluster, /b submits work; after the sustained periods /a gives back until both sit at their entitlements", async () => {
    const cycles = await system(2); // 8 cores
    const a = await leafPool(gateway, "a", pool(8));
    const b = await leafPool(gateway, "b", pool(8));
    const aJob = await submit(gateway, a, job("a-work", 8, { priority: 1, preemptible: true }));
    await expect.poll(() => statesBy(aJob), { timeout: 20_000 }).toEqual(Array(8).fill("RUNNING"));
    expect(await preemptionsOf(aJob)).toEqual([]);

    const bJob = await submit(gateway, b, job("b-work", 4, { priority: 1, preemptible: true }));
    await expect
      .poll(
        async () => [
          count(await statesBy(aJob), "RUNNING"),
          count(await statesBy(bJob), "RUNNING"),
        ],
        {
          timeout: 20_000,
        },
      )
      .toEqual([4, 4]);
    // Both at their entitlement: half of the 8 cores each.
    expect(await poolNumbers(a)).toEqual({ allocation: 4, entitlement: 4 });
    expect(await poolNumbers(b)).toEqual({ allocation: 4, entitlement: 4 });

    // Four victims, all of /a, for /b, decided at the root, in one cycle.
    const rows = await preemptionsOf(aJob);
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      expect(r).toMatchObject({
        kind: "INTER_POOL",
        level: "/",
        victim: { poolPath: a, state: "RUNNING", stateAfter: "PREEMPTING", runId: 1 },
        beneficiary: { poolPath: b },
      });
      expect(r.numbers.allocation.cpu).toBe(8);
      expect(r.numbers.entitlement.cpu).toBe(4);
      expect(r.numbers.excess.cpu).toBe(4);
      expect(r.reason).toMatch(
        /^\/a was over its cpu entitlement by 4 cores \(allocation 8, entitlement 4\) while \/b waited/,
      );
    }
    expect(rows.map((r) => r.numbers.remaining.cpu).sort()).toEqual([1, 2, 3, 4]);

    // The sustained rule: /a was over for SUSTAINED counted periods before anything was taken.
    const recording = cycles.find((c) => c.outcome.recorded.length > 0)!;
    expect(recording.counting).toBe(true);
    expect(recording.result.pools).toEqual([
      expect.objectContaining({ pool: a, count: SUSTAINED, victims: 4 }),
    ]);
    const before = cycles.slice(0, cycles.indexOf(recording));
    const overBefore = before.filter((c) => {
      const p = c.snapshot.input.pools.find((x) => x.path === a);
      return c.counting && p !== undefined && p.allocation.cpu > p.nonSlackEntitlement.cpu;
    });
    expect(overBefore.length).toBe(SUSTAINED - 1);
    expectStoredAsDecided(recording, rows);
    // The snapshot was the cluster as it was: /a held 8, /b waited for 4.
    const aPool = recording.snapshot.input.pools.find((p) => p.path === a)!;
    const bPool = recording.snapshot.input.pools.find((p) => p.path === b)!;
    expect([aPool.allocation.cpu, aPool.nonSlackEntitlement.cpu]).toEqual([8, 4]);
    expect(bPool.nonSlackEntitlement.cpu).toBe(4);

    // Each victim: killed as preempted (not a failure), back to PENDING as its next run.
    const victim = rows[0]!.victim;
    const steps = (await eventsOf(aJob, victim.instanceId)).map(
      (e) => `${e.run_id} ${e.previous_state}→${e.state} ${e.source} ${e.reason}`,
    );
    expect(steps.slice(-4)).toEqual([
      "1 RUNNING→PREEMPTING PREEMPTOR PREEMPTED",
      "1 PREEMPTING→KILLED HOST_MANAGER PREEMPTED",
      "2 KILLED→INITIALIZED JOB_MANAGER PREEMPTED",
      "2 INITIALIZED→PENDING JOB_MANAGER ENQUEUED",
    ]);
    const victimRow = (await tasksOf(aJob)).find((t) => t.instance_id === victim.instanceId)!;
    expect(victimRow).toMatchObject({ state: "PENDING", run_id: 2, failure_count: 0 });
    // The job's counts followed every move (the preemptor's included).
    const [counts] = await directSql<{ task_stats: Record<string, number> }>(
      "SELECT task_stats FROM jobs WHERE id = $1",
      [aJob],
    );
    expect(counts!.task_stats).toEqual({ RUNNING: 4, PENDING: 4 });

    // Settled: later periods take nothing more.
    const settled = cycles.length;
    await expect
      .poll(() => cycles.slice(settled).filter((c) => c.counting).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(SUSTAINED + 1);
    expect(await preemptionsOf(aJob)).toHaveLength(4);
  });

  it("inter-pool with nobody waiting: /p/b's demand took /p/a's entitlement and ran elsewhere; the preemption is for /p/b", async () => {
    //   /p     cpu limit 8 (the cluster has 12)
    //   ├─ a   holds 8: its entitlement 8 → 4 when b asks
    //   └─ b   4, admitted and placed on the free cores at once: waits for nothing
    const cycles = await system(3);
    const p = await leafPool(gateway, "p", pool(8));
    const parent = (await gateway.pools.getByPath(p))!;
    const child = (name: string) =>
      gateway.pools.create(
        { path: `${p}/${name}`, name, parentId: parent.id, resources: pool(8) },
        "test",
      );
    await child("a");
    await child("b");
    const aJob = await submit(
      gateway,
      `${p}/a`,
      job("a-work", 8, { priority: 1, preemptible: true }),
    );
    await expect.poll(() => statesBy(aJob), { timeout: 20_000 }).toEqual(Array(8).fill("RUNNING"));
    // A period sees /p/a within its entitlement before /p/b asks: that is the baseline
    // /p/b's growth is measured from. (A period may not fall between /p/a's tasks
    // running and /p/b's admission; /p/a is then over from the first period that
    // counts it, and a pool over since the leader began names nobody.)
    const seenWithin = cycles.length;
    await expect
      .poll(() => cycles.length - seenWithin, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    const bJob = await submit(
      gateway,
      `${p}/b`,
      job("b-work", 4, { priority: 1, preemptible: true }),
    );
    await expect
      .poll(async () => count(await statesBy(bJob), "RUNNING"), { timeout: 20_000 })
      .toBe(4);
    await expect.poll(async () => (await preemptionsOf(aJob)).length, { timeout: 20_000 }).toBe(4);

    for (const r of await preemptionsOf(aJob)) {
      expect(r).toMatchObject({
        kind: "INTER_POOL",
        level: p,
        victim: { poolPath: `${p}/a` },
        beneficiary: { poolPath: `${p}/b` },
      });
      expect(r.numbers.beneficiaries).toEqual([
        expect.objectContaining({
          pool: `${p}/b`,
          entitlementBefore: expect.objectContaining({ cpu: 0 }),
          entitlement: expect.objectContaining({ cpu: 4 }),
        }),
      ]);
      expect(r.reason).toMatch(
        /: \/p\/b's demand took it, its cpu entitlement 0 → 4, decided at \/p;/,
      );
    }
    // The beneficiary's side finds them, and counts them as given to it.
    const forB = await gateway.preemptions.list({
      pool: { path: `${p}/b`, side: "beneficiary", subtree: false },
      limit: 100,
    });
    expect(forB.items).toHaveLength(4);
    const counts = await gateway.preemptions.countsByPool(
      { pool: { path: `${p}/b`, side: "either", subtree: false } },
      86_400,
    );
    expect(counts.reduce((n, c) => n + c.in, 0)).toBe(4);
  });

  it("intra-pool: a priority-10 task preempts a priority-1 task of its own pool; the non-preemptible job is never touched", async () => {
    const cycles = await system(1); // 4 cores
    const p = await leafPool(gateway, "p", pool(4, { cpu: 1, memory: 1024, disk: 0 }));
    // The pool's lowest priority, but non-preemptible (it runs on the reservation).
    const keep = await submit(gateway, p, job("keep", 1, { priority: 0, preemptible: false }));
    const low = await submit(gateway, p, job("low", 3, { priority: 1, preemptible: true }));
    await expect.poll(() => statesBy(keep), { timeout: 20_000 }).toEqual(["RUNNING"]);
    await expect.poll(() => statesBy(low), { timeout: 20_000 }).toEqual(Array(3).fill("RUNNING"));

    const high = await submit(gateway, p, job("high", 1, { priority: 10, preemptible: true }));
    await expect.poll(() => statesBy(high), { timeout: 20_000 }).toEqual(["RUNNING"]);
    const rows = await gateway.preemptions.list({
      pool: { path: p, side: "either", subtree: false },
      limit: 10,
    });
    expect(rows.items).toHaveLength(1);
    const [row] = rows.items;
    const [highTask] = await directSql<{ id: string }>(
      "SELECT id::text FROM tasks WHERE job_id = $1",
      [high],
    );
    expect(row).toMatchObject({
      kind: "INTRA_POOL",
      level: p,
      victim: { jobId: low, priority: 1, state: "RUNNING", stateAfter: "PREEMPTING" },
      beneficiary: {
        poolPath: p,
        priority: 10,
        task: { taskId: highTask!.id, jobName: "high", instanceId: 0 },
      },
    });
    expect([
      row!.numbers.allocation.cpu,
      row!.numbers.entitlement.cpu,
      row!.numbers.excess.cpu,
    ]).toEqual([4, 4, 1]);
    expect(row!.reason).toMatch(/high\/0 \(priority 10\)/);
    expect(row!.reason).toMatch(new RegExp(`low/${row!.victim.instanceId} \\(priority 1\\)`));
    const recording = cycles.find((c) => c.outcome.recorded.length > 0)!;
    expectStoredAsDecided(recording, rows.items);

    // The victim waits again as its next run; the non-preemptible task kept its first run.
    expect(await statesBy(low)).toEqual(
      [0, 1, 2].map((i) => (i === row!.victim.instanceId ? "PENDING" : "RUNNING")),
    );
    const [kept] = await tasksOf(keep);
    expect(kept).toMatchObject({ state: "RUNNING", run_id: 1 });
    expect((await eventsOf(keep, 0)).filter((e) => e.source === "PREEMPTOR")).toEqual([]);

    // Later cycles: the victim (priority 1) finds nothing below it it may take.
    const seen = cycles.length;
    await expect.poll(() => cycles.length - seen, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    expect(cycles.slice(seen).every((c) => c.rows.length === 0)).toBe(true);
    expect((await gateway.preemptions.list({ limit: 10 })).items).toHaveLength(1);
    expect(await statesBy(keep)).toEqual(["RUNNING"]);
  });

  it("SLA: a service that allows one instance down loses one at a time, however far its pool is over", async () => {
    const cycles = await system(1); // 4 cores
    const a = await leafPool(gateway, "a", pool(4));
    const b = await leafPool(gateway, "b", pool(4));
    const svc = await submit(
      gateway,
      a,
      job(
        "svc",
        4,
        { priority: 1, preemptible: true, maximumUnavailableInstances: 1 },
        { type: "SERVICE" },
      ),
    );
    await expect.poll(() => statesBy(svc), { timeout: 20_000 }).toEqual(Array(4).fill("RUNNING"));
    const from = cycles.length;

    // /b's demand halves /a's entitlement: /a is 2 cores over, its SLA allows 1 down.
    const bJob = await submit(gateway, b, job("b-work", 2, { priority: 1, preemptible: true }));
    await expect
      .poll(async () => count(await statesBy(bJob), "RUNNING"), { timeout: 20_000 })
      .toBe(1);
    // Several more periods in which /a is due again: the SLA holds it each time.
    await expect
      .poll(
        () => cycles.slice(from).filter((c) => c.result.pools.some((p) => p.pool === a)).length,
        { timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(3);

    const rows = await preemptionsOf(svc);
    expect(rows).toHaveLength(1);
    expect(count(await statesBy(svc), "RUNNING")).toBe(3);
    const dues = cycles.slice(from).flatMap((c) => c.result.pools.filter((p) => p.pool === a));
    expect(dues[0]).toMatchObject({
      victims: 1,
      nonSlackExcess: expect.objectContaining({ cpu: 2 }),
    });
    expect(dues[0]!.skippedForSla.length).toBeGreaterThan(0);
    for (const later of dues.slice(1)) {
      expect(later.victims).toBe(0);
      expect(later.nonSlackUncovered.cpu).toBe(1);
      expect(later.skippedForSla.length).toBe(3);
    }
    // Never more than one instance down in any snapshot the preemptor read /a's tasks in.
    const readA = cycles
      .slice(from)
      .filter((c) => c.snapshot.input.tasks.some((t) => t.jobId === svc));
    expect(readA.length).toBeGreaterThanOrEqual(dues.length);
    for (const c of readA) {
      const running = c.snapshot.input.tasks.filter(
        (t) => t.jobId === svc && t.state === "RUNNING",
      ).length;
      expect(running).toBeGreaterThanOrEqual(3);
      expect(c.snapshot.input.jobs[svc]?.unavailableInstances ?? 0).toBeLessThanOrEqual(1);
    }
    // The service's victim is restarted (a new run waits: /a is still above its entitlement).
    const victim = (await tasksOf(svc)).find((t) => t.instance_id === rows[0]!.victim.instanceId)!;
    expect(victim).toMatchObject({ state: "PENDING", run_id: 2, failure_count: 0 });
  });
});
