/**
 * The preemptions repository on the scratch database: victims recorded with
 * `recordMany` inside a transaction (their move, event and row together),
 * every filter, the keyset, the export's batches, counts over time and
 * "whether it came back".
 *
 *   /
 *   ├── a
 *   │   ├── x     victims: job "etl" (4 instances)
 *   │   └── y     beneficiary of some
 *   └── b         victims: job "web" (2 instances); beneficiary of others
 */
import { readFileSync } from "node:fs";
import type { TaskState } from "@peloton/engine";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { amounts, preemptionNumbers } from "@peloton/test-support/storage/preemption-builders.ts";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import type {
  NewPreemption,
  PoolRecord,
  PreemptionCountRow,
  PreemptionFilters,
  StorageGateway,
} from "../src/index.ts";

const gateway = testGateway();
afterAll(() => gateway.close());

const pgPool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => pgPool.end());
async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
  return (await pgPool.query<T>(text, params)).rows;
}

const T0 = new Date("2026-11-20T10:00:00.000Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

interface Task {
  id: string;
  jobId: string;
  jobName: string;
  instanceId: number;
  runId: number;
  state: TaskState;
  pool: PoolRecord;
}

interface World {
  pools: Record<"/a" | "/a/x" | "/a/y" | "/b", PoolRecord>;
  etl: Task[];
  web: Task[];
}

async function world(): Promise<World> {
  const root = await gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "t",
  );
  const pool = (path: string, parentId: string) =>
    gateway.pools.create({ path, name: path.split("/").pop()!, parentId, resources: {} }, "t");
  const a = await pool("/a", root.id);
  const pools = {
    "/a": a,
    "/a/x": await pool("/a/x", a.id),
    "/a/y": await pool("/a/y", a.id),
    "/b": await pool("/b", root.id),
  };
  const job = async (name: string, p: PoolRecord, states: TaskState[]): Promise<Task[]> => {
    const { id } = await gateway.jobs.create({
      name,
      type: "BATCH",
      poolId: p.id,
      owner: "t",
      configYaml: `name: ${name}`,
      config: { name },
      instanceCount: states.length,
    });
    await gateway.tasks.insertMany(
      states.map((state, instanceId) => ({
        jobId: id,
        instanceId,
        state,
        goalState: "SUCCEEDED" as const,
        priority: 1,
        preemptible: true,
        cpu: 2,
        memMb: 256,
        diskMb: 0,
        gpu: 0,
      })),
    );
    const rows = await sql<{ id: string; instance_id: number }>(
      "SELECT id::text, instance_id FROM tasks WHERE job_id = $1 ORDER BY instance_id",
      [id],
    );
    return rows.map((r) => ({
      id: r.id,
      jobId: id,
      jobName: name,
      instanceId: r.instance_id,
      runId: 1,
      state: states[r.instance_id]!,
      pool: p,
    }));
  };
  return {
    pools,
    etl: await job("etl", pools["/a/x"], ["RUNNING", "RUNNING", "READY", "RUNNING"]),
    web: await job("web", pools["/b"], ["RUNNING", "PLACING"]),
  };
}

/** A row as the preemptor would record it for `victim`, in favour of `beneficiary`. */
function row(
  victim: Task,
  at: Date,
  beneficiary: PoolRecord | null,
  opts: { kind?: "INTER_POOL" | "INTRA_POOL"; gangTask?: Task; alsoFor?: PoolRecord[] } = {},
): NewPreemption {
  const kind = opts.kind ?? "INTER_POOL";
  return {
    at,
    kind,
    victim: {
      taskId: victim.id,
      jobId: victim.jobId,
      jobName: victim.jobName,
      instanceId: victim.instanceId,
      runId: victim.runId,
      priority: 1,
      state: victim.state,
      stateAfter: victim.state === "RUNNING" ? "PREEMPTING" : "PENDING",
      poolId: victim.pool.id,
      poolPath: victim.pool.path,
    },
    beneficiary: beneficiary && {
      poolId: beneficiary.id,
      poolPath: beneficiary.path,
      gangId: opts.gangTask ? `gang-${opts.gangTask.id}` : null,
      task: opts.gangTask
        ? {
            taskId: opts.gangTask.id,
            jobId: opts.gangTask.jobId,
            jobName: opts.gangTask.jobName,
            instanceId: opts.gangTask.instanceId,
          }
        : null,
      priority: opts.gangTask ? 9 : null,
    },
    level: beneficiary ? (kind === "INTRA_POOL" ? beneficiary.path : "/") : null,
    reason: `${victim.pool.path} was over its cpu entitlement; preempted ${victim.jobName}/${victim.instanceId}`,
    numbers: preemptionNumbers(
      { allocation: 10, entitlement: 8, victim: 2 },
      {
        victim: amounts({ cpu: 2, memory: 256 }),
        beneficiaries: (beneficiary ? [beneficiary, ...(opts.alsoFor ?? [])] : []).map((b) => ({
          pool: b.path,
          level: "/",
          demand: amounts({ cpu: 4 }),
          allocation: amounts(),
          entitlement: amounts({ cpu: 4 }),
        })),
      },
    ),
  };
}

/** Records rows in one transaction, as the preemptor does. */
function record(g: StorageGateway, rows: NewPreemption[]) {
  return g.transaction((tx) => tx.preemptions.recordMany(rows));
}

beforeEach(() => resetDatabase());

describe("recordMany", () => {
  it("moves each victim, appends its event and writes its row, in the caller's transaction", async () => {
    const w = await world();
    const running = w.etl[0]!;
    const ready = w.etl[2]!;
    const outcome = await record(gateway, [
      row(running, minutes(1), w.pools["/a/y"]),
      row(ready, minutes(1), w.pools["/a/y"]),
    ]);
    expect(outcome.stale).toEqual([]);
    expect(outcome.recorded.map((r) => r.taskId)).toEqual([running.id, ready.id]);
    // What the caller adds to the job's task counts in the same transaction.
    expect(outcome.countDeltas).toEqual([
      { jobId: running.jobId, state: "RUNNING", delta: -1 },
      { jobId: running.jobId, state: "PREEMPTING", delta: 1 },
      { jobId: running.jobId, state: "READY", delta: -1 },
      { jobId: running.jobId, state: "PENDING", delta: 1 },
    ]);

    const tasks = await sql<{ id: string; state: string; reason: string; message: string }>(
      "SELECT id::text, state::text, reason, message FROM tasks WHERE id = ANY($1::uuid[]) ORDER BY instance_id",
      [[running.id, ready.id]],
    );
    expect(tasks.map((t) => [t.state, t.reason])).toEqual([
      ["PREEMPTING", "PREEMPTED"],
      ["PENDING", "PREEMPTED"],
    ]);
    expect(tasks[0]!.message).toMatch(/over its cpu entitlement; preempted etl\/0/);

    const events = await sql<{
      previous_state: string;
      state: string;
      source: string;
      reason: string;
      at: Date;
    }>(
      "SELECT previous_state::text, state::text, source, reason, at FROM task_events WHERE task_id = ANY($1::uuid[]) ORDER BY id",
      [[running.id, ready.id]],
    );
    expect(events).toEqual([
      {
        previous_state: "RUNNING",
        state: "PREEMPTING",
        source: "PREEMPTOR",
        reason: "PREEMPTED",
        at: minutes(1),
      },
      {
        previous_state: "READY",
        state: "PENDING",
        source: "PREEMPTOR",
        reason: "PREEMPTED",
        at: minutes(1),
      },
    ]);

    const got = await gateway.preemptions.get(outcome.recorded[0]!.id);
    expect(got).toMatchObject({
      kind: "INTER_POOL",
      at: minutes(1),
      victim: {
        taskId: running.id,
        jobName: "etl",
        instanceId: 0,
        runId: 1,
        state: "RUNNING",
        stateAfter: "PREEMPTING",
        poolPath: "/a/x",
      },
      beneficiary: { poolPath: "/a/y", gangId: null, task: null, priority: null },
      level: "/",
      numbers: { excess: { cpu: 2 }, victim: { cpu: 2, memory: 256 } },
      rescheduled: null,
      taskNow: { state: "PREEMPTING", runId: 1 },
    });
  });

  it("writes nothing when the caller's transaction fails after it (no row without its event and move)", async () => {
    const w = await world();
    await expect(
      gateway.transaction(async (tx) => {
        await tx.preemptions.recordMany([row(w.etl[0]!, minutes(1), w.pools["/a/y"])]);
        throw new Error("the kill could not be queued");
      }),
    ).rejects.toThrow("the kill could not be queued");
    expect(await sql("SELECT 1 FROM preemptions")).toHaveLength(0);
    expect(await sql("SELECT 1 FROM task_events")).toHaveLength(0);
    expect(
      (
        await sql<{ state: string }>("SELECT state::text FROM tasks WHERE id = $1", [w.etl[0]!.id])
      )[0]!.state,
    ).toBe("RUNNING");
  });

  it("skips a victim whose task moved on since the snapshot, and says what it is now", async () => {
    const w = await world();
    const moved = { ...w.etl[1]!, state: "READY" as const }; // the snapshot said READY; it is RUNNING
    const outcome = await record(gateway, [
      row(moved, minutes(1), w.pools["/a/y"]),
      row(w.etl[3]!, minutes(1), w.pools["/a/y"]),
    ]);
    expect(outcome.recorded.map((r) => r.taskId)).toEqual([w.etl[3]!.id]);
    expect(outcome.stale).toEqual([
      {
        taskId: moved.id,
        expected: { state: "READY", runId: 1 },
        actual: { state: "RUNNING", runId: 1 },
      },
    ]);
    expect(await sql("SELECT 1 FROM task_events WHERE task_id = $1", [moved.id])).toHaveLength(0);
  });

  it("refuses to run outside a transaction, and a task twice in one call", async () => {
    const w = await world();
    await expect(
      gateway.preemptions.recordMany([row(w.etl[0]!, minutes(1), null)]),
    ).rejects.toThrow(/inside a transaction/);
    const r = row(w.etl[0]!, minutes(1), null);
    await expect(record(gateway, [r, r])).rejects.toThrow(/at most once/);
    expect(await sql("SELECT 1 FROM preemptions")).toHaveLength(0);
  });

  it("announces preemptions, tasks, jobs and both pools on commit", async () => {
    const w = await world();
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    const heard: { t: string; k: string[] | null }[] = [];
    client.on("notification", (n) => heard.push(JSON.parse(n.payload ?? "{}")));
    await client.query("LISTEN peloton_changes");
    try {
      const { recorded } = await record(gateway, [row(w.etl[0]!, minutes(1), w.pools["/b"])]);
      await expect.poll(() => heard.length).toBeGreaterThanOrEqual(4);
      expect(heard).toEqual(
        expect.arrayContaining([
          { t: "preemptions", k: [recorded[0]!.id] },
          { t: "tasks", k: [`${w.etl[0]!.jobId}/0`] },
          { t: "jobs", k: [w.etl[0]!.jobId] },
          { t: "pools", k: ["/a/x", "/b"] },
        ]),
      );
    } finally {
      await client.end();
    }
  });
});

describe("list", () => {
  /**
   * Six preemptions, newest last:
   *   m1 etl/0 → /a/y   m2 etl/1 → /b   m2 etl/3 → /a/y (same time as the one before)
   *   m3 web/0 → /a/y   m4 web/1 intra in /b for etl/2's… (gang of web)   m5 etl/2, no beneficiary
   */
  async function history(w: World) {
    const rows = [
      row(w.etl[0]!, minutes(1), w.pools["/a/y"]),
      row(w.etl[1]!, minutes(2), w.pools["/b"]),
      row(w.etl[3]!, minutes(2), w.pools["/a/y"]),
      row(w.web[0]!, minutes(3), w.pools["/a/y"]),
      row(w.web[1]!, minutes(4), w.pools["/b"], { kind: "INTRA_POOL", gangTask: w.web[0]! }),
      row(w.etl[2]!, minutes(5), null),
    ];
    const { recorded } = await record(gateway, rows);
    expect(recorded).toHaveLength(6);
    return recorded.map((r) => r.id);
  }

  const victims = async (f: PreemptionFilters) =>
    (await gateway.preemptions.list({ ...f, limit: 100 })).items.map(
      (p) => `${p.victim.jobName}/${p.victim.instanceId}`,
    );

  it("pages newest first by (at, id), each row once, ties on the time by id", async () => {
    const w = await world();
    const ids = await history(w);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof gateway.preemptions.list>> =
        await gateway.preemptions.list({ limit: 4, cursor });
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    // etl/1 and etl/3 share minute 2: the later id first.
    expect(seen).toEqual([ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]]);
    const page = await gateway.preemptions.list({ limit: 2, cursor: null });
    expect(page.nextCursor).toMatch(/^\d+_\d+$/);
  });

  it.each<{ name: string; filters: (w: World) => PreemptionFilters; expected: string[] }>([
    {
      name: "no filter",
      filters: () => ({}),
      expected: ["etl/2", "web/1", "web/0", "etl/3", "etl/1", "etl/0"],
    },
    {
      name: "victim pool, exactly",
      filters: () => ({ pool: { path: "/a/x", side: "victim", subtree: false } }),
      expected: ["etl/2", "etl/3", "etl/1", "etl/0"],
    },
    {
      name: "victim pool /a alone holds no task",
      filters: () => ({ pool: { path: "/a", side: "victim", subtree: false } }),
      expected: [],
    },
    {
      name: "victim pool /a and below",
      filters: () => ({ pool: { path: "/a", side: "victim", subtree: true } }),
      expected: ["etl/2", "etl/3", "etl/1", "etl/0"],
    },
    {
      name: "beneficiary pool",
      filters: () => ({ pool: { path: "/a/y", side: "beneficiary", subtree: false } }),
      expected: ["web/0", "etl/3", "etl/0"],
    },
    {
      name: "beneficiary /a and below",
      filters: () => ({ pool: { path: "/a", side: "beneficiary", subtree: true } }),
      expected: ["web/0", "etl/3", "etl/0"],
    },
    {
      name: "either side of /b (in and out, intra-pool once)",
      filters: () => ({ pool: { path: "/b", side: "either", subtree: false } }),
      expected: ["web/1", "web/0", "etl/1"],
    },
    {
      name: "either side under the root: everything",
      filters: () => ({ pool: { path: "/", side: "either", subtree: true } }),
      expected: ["etl/2", "web/1", "web/0", "etl/3", "etl/1", "etl/0"],
    },
    { name: "job", filters: (w) => ({ jobId: w.web[0]!.jobId }), expected: ["web/1", "web/0"] },
    {
      name: "job and instance",
      filters: (w) => ({ jobId: w.etl[0]!.jobId, instanceId: 3 }),
      expected: ["etl/3"],
    },
    { name: "task", filters: (w) => ({ taskId: w.etl[1]!.id }), expected: ["etl/1"] },
    { name: "kind", filters: () => ({ kind: "INTRA_POOL" }), expected: ["web/1"] },
    {
      name: "time range: since inclusive, until exclusive",
      filters: () => ({ since: minutes(2), until: minutes(4) }),
      expected: ["web/0", "etl/3", "etl/1"],
    },
    {
      name: "filters combine",
      filters: (w) => ({
        jobId: w.etl[0]!.jobId,
        pool: { path: "/a/y", side: "beneficiary", subtree: false },
        since: minutes(2),
      }),
      expected: ["etl/3"],
    },
  ])("filters: $name", async ({ filters, expected }) => {
    const w = await world();
    await history(w);
    expect(await victims(filters(w))).toEqual(expected);
  });

  it("pages within a filter by the same keyset", async () => {
    const w = await world();
    await history(w);
    const f: PreemptionFilters = { pool: { path: "/a", side: "either", subtree: true } };
    const first = await gateway.preemptions.list({ ...f, limit: 2 });
    const second = await gateway.preemptions.list({ ...f, limit: 2, cursor: first.nextCursor });
    const third = await gateway.preemptions.list({ ...f, limit: 2, cursor: second.nextCursor });
    expect(
      [...first.items, ...second.items, ...third.items].map(
        (p) => `${p.victim.jobName}/${p.victim.instanceId}`,
      ),
    ).toEqual(["etl/2", "web/0", "etl/3", "etl/1", "etl/0"]);
    expect(third.nextCursor).toBeNull();
  });

  it("reads an intra-pool row with its gang, and returns null for an unknown or malformed id", async () => {
    const w = await world();
    const ids = await history(w);
    const intra = await gateway.preemptions.get(ids[4]!);
    expect(intra).toMatchObject({
      kind: "INTRA_POOL",
      level: "/b",
      beneficiary: {
        poolPath: "/b",
        gangId: `gang-${w.web[0]!.id}`,
        task: { taskId: w.web[0]!.id, jobName: "web", instanceId: 0 },
        priority: 9,
      },
      victim: { state: "PLACING", stateAfter: "PENDING" },
    });
    expect(await gateway.preemptions.get("999999")).toBeNull();
    expect(await gateway.preemptions.get("not-a-number")).toBeNull();
  });

  it("exports every matching row in keyset batches", async () => {
    const w = await world();
    await history(w);
    const batches: string[][] = [];
    for await (const b of gateway.preemptions.exportBatches({ jobId: w.etl[0]!.jobId }, 3))
      batches.push(b.map((p) => `${p.victim.jobName}/${p.victim.instanceId}`));
    expect(batches).toEqual([["etl/2", "etl/3", "etl/1"], ["etl/0"]]);
    const none: unknown[] = [];
    for await (const b of gateway.preemptions.exportBatches({
      kind: "INTRA_POOL",
      jobId: w.etl[0]!.jobId,
    }))
      none.push(b);
    expect(none).toEqual([]);
  });
});

describe("countsByPool", () => {
  it("counts out of, into and within each pool per time bucket", async () => {
    const w = await world();
    await record(gateway, [
      row(w.etl[0]!, minutes(1), w.pools["/a/y"]),
      row(w.etl[1]!, minutes(2), w.pools["/b"]),
      row(w.web[0]!, minutes(12), w.pools["/a/y"]),
      row(w.web[1]!, minutes(13), w.pools["/b"], { kind: "INTRA_POOL", gangTask: w.web[0]! }),
    ]);
    const tenMinutes = 600;
    const bucket = (m: number) => new Date(Math.floor(minutes(m).getTime() / 600_000) * 600_000);
    expect(await gateway.preemptions.countsByPool({}, tenMinutes)).toEqual([
      { bucket: bucket(1), pool: "/a/x", out: 2, in: 0, within: 0 },
      { bucket: bucket(1), pool: "/a/y", out: 0, in: 1, within: 0 },
      { bucket: bucket(1), pool: "/b", out: 0, in: 1, within: 0 },
      { bucket: bucket(12), pool: "/a/y", out: 0, in: 1, within: 0 },
      { bucket: bucket(12), pool: "/b", out: 1, in: 0, within: 1 },
    ]);
    // One pool, whichever side it was on.
    expect(
      await gateway.preemptions.countsByPool(
        { pool: { path: "/b", side: "victim", subtree: false } },
        tenMinutes,
      ),
    ).toEqual([
      { bucket: bucket(1), pool: "/b", out: 0, in: 1, within: 0 },
      { bucket: bucket(12), pool: "/b", out: 1, in: 0, within: 1 },
    ]);
    // A pool and the pools below it, each on its own.
    const under = await gateway.preemptions.countsByPool(
      { pool: { path: "/a", side: "either", subtree: true }, since: minutes(10) },
      tenMinutes,
    );
    expect(under).toEqual([{ bucket: bucket(12), pool: "/a/y", out: 0, in: 1, within: 0 }]);
    expect(await gateway.preemptions.earliestAt({ jobId: w.web[0]!.jobId })).toEqual(minutes(12));
    expect(
      await gateway.preemptions.earliestAt({ kind: "INTRA_POOL", since: minutes(20) }),
    ).toBeNull();
  });

  it("counts an inter-pool preemption into every pool it was for, and each finds it", async () => {
    const w = await world();
    // For /a/y (the closest) and /b, whose demand took the entitlement too.
    await record(gateway, [
      row(w.etl[0]!, minutes(1), w.pools["/a/y"], { alsoFor: [w.pools["/b"]] }),
    ]);
    // The hour minute 1 falls in.
    const bucket = new Date(Math.floor(minutes(1).getTime() / 3_600_000) * 3_600_000);
    const hourly = await gateway.preemptions.countsByPool({}, 3600);
    const byRows = await gateway.preemptions.countsByPool({ jobId: w.etl[0]!.jobId }, 3600);
    for (const counts of [hourly, byRows])
      expect(counts).toEqual([
        { bucket, pool: "/a/x", out: 1, in: 0, within: 0 },
        { bucket, pool: "/a/y", out: 0, in: 1, within: 0 },
        { bucket, pool: "/b", out: 0, in: 1, within: 0 },
      ]);
    for (const pool of [
      { path: "/b", side: "beneficiary", subtree: false },
      { path: "/b", side: "either", subtree: true },
      { path: "/a/y", side: "beneficiary", subtree: false },
      { path: "/a", side: "beneficiary", subtree: true },
    ] as const) {
      const page = await gateway.preemptions.list({ pool, limit: 10 });
      expect(
        page.items.map((p) => p.beneficiary?.poolPath),
        JSON.stringify(pool),
      ).toEqual(["/a/y"]);
    }
    // The victim's pool was not one of them.
    const none = await gateway.preemptions.list({
      pool: { path: "/a/x", side: "beneficiary", subtree: false },
      limit: 10,
    });
    expect(none.items).toEqual([]);
  });

  it("fills rows recorded before every pool was kept in, as recordMany writes them now", async () => {
    const w = await world();
    await record(gateway, [
      row(w.etl[0]!, minutes(1), w.pools["/a/y"], { alsoFor: [w.pools["/b"]] }),
      row(w.web[1]!, minutes(2), w.pools["/b"], { kind: "INTRA_POOL", gangTask: w.web[0]! }),
      row(w.etl[1]!, minutes(3), null),
    ]);
    const state = () =>
      sql(`SELECT victim_task_id, beneficiary_pool_paths,
                  ARRAY(SELECT k FROM unnest(pool_keys) k ORDER BY k) AS pool_keys
           FROM preemptions ORDER BY at`);
    const counts = () => sql("SELECT * FROM preemption_counts ORDER BY 1, 2, 3, 4");
    const [rows, counted] = [await state(), await counts()];
    // As the rows were before the migration: the closest pool alone.
    await sql(`UPDATE preemptions SET beneficiary_pool_paths = '{}',
                 pool_keys = array_remove(pool_keys, 'beneficiary:/b') WHERE kind = 'INTER_POOL'`);
    await sql("DELETE FROM preemption_counts WHERE pool = '/b' AND side = 'in'");
    const migration = readFileSync(
      new URL(
        "../../../prisma/migrations/20261129101233_preemption_beneficiary_pools/migration.sql",
        import.meta.url,
      ),
      "utf8",
    );
    await sql(migration.slice(migration.indexOf("-- Backfill")));
    expect(await state()).toEqual(rows);
    expect(await counts()).toEqual(counted);
  });

  it("reads whole hours and days from the counts recordMany keeps, the same as counting the rows", async () => {
    const w = await world();
    // Two cycles in one hour, one the next hour; the counts add up across calls.
    await record(gateway, [
      row(w.etl[0]!, minutes(1), w.pools["/a/y"]),
      row(w.web[1]!, minutes(2), w.pools["/b"], { kind: "INTRA_POOL", gangTask: w.web[0]! }),
    ]);
    await record(gateway, [row(w.etl[1]!, minutes(30), w.pools["/a/y"])]);
    await record(gateway, [row(w.web[0]!, minutes(75), w.pools["/a/y"])]);
    const hour = (h: number) => new Date(T0.getTime() + h * 3_600_000);
    const counts = await sql<{
      period_seconds: number;
      start: Date;
      pool: string;
      side: string;
      n: number;
    }>("SELECT period_seconds, start, pool, side, n FROM preemption_counts ORDER BY 1, 2, 3, 4");
    const day = new Date(Math.floor(T0.getTime() / 86_400_000) * 86_400_000);
    expect(counts).toEqual([
      { period_seconds: 3600, start: hour(0), pool: "/a/x", side: "out", n: 2 },
      { period_seconds: 3600, start: hour(0), pool: "/a/y", side: "in", n: 2 },
      { period_seconds: 3600, start: hour(0), pool: "/b", side: "within", n: 1 },
      { period_seconds: 3600, start: hour(1), pool: "/a/y", side: "in", n: 1 },
      { period_seconds: 3600, start: hour(1), pool: "/b", side: "out", n: 1 },
      { period_seconds: 86400, start: day, pool: "/a/x", side: "out", n: 2 },
      { period_seconds: 86400, start: day, pool: "/a/y", side: "in", n: 3 },
      { period_seconds: 86400, start: day, pool: "/b", side: "out", n: 1 },
      { period_seconds: 86400, start: day, pool: "/b", side: "within", n: 1 },
    ]);
    // The hourly path (a bucket of whole hours) and the rows' path (minutes, summed
    // into hours here) agree.
    const all = { since: hour(0), until: hour(2) };
    const hourly = await gateway.preemptions.countsByPool(all, 3600);
    expect(hourly).toEqual([
      { bucket: hour(0), pool: "/a/x", out: 2, in: 0, within: 0 },
      { bucket: hour(0), pool: "/a/y", out: 0, in: 2, within: 0 },
      { bucket: hour(0), pool: "/b", out: 0, in: 0, within: 1 },
      { bucket: hour(1), pool: "/a/y", out: 0, in: 1, within: 0 },
      { bucket: hour(1), pool: "/b", out: 1, in: 0, within: 0 },
    ]);
    const byHour = new Map<string, PreemptionCountRow>();
    for (const r of await gateway.preemptions.countsByPool(all, 60)) {
      const h = new Date(Math.floor(r.bucket.getTime() / 3_600_000) * 3_600_000);
      const key = `${h.getTime()} ${r.pool}`;
      const sum = byHour.get(key) ?? { bucket: h, pool: r.pool, out: 0, in: 0, within: 0 };
      byHour.set(key, {
        ...sum,
        out: sum.out + r.out,
        in: sum.in + r.in,
        within: sum.within + r.within,
      });
    }
    expect(
      [...byHour.values()].sort(
        (a, b) =>
          a.bucket.getTime() - b.bucket.getTime() || String(a.pool).localeCompare(String(b.pool)),
      ),
    ).toEqual(hourly);
    // Kind and pool filters apply to the hourly counts too.
    expect(await gateway.preemptions.countsByPool({ ...all, kind: "INTRA_POOL" }, 3600)).toEqual([
      { bucket: hour(0), pool: "/b", out: 0, in: 0, within: 1 },
    ]);
    expect(
      await gateway.preemptions.countsByPool(
        { ...all, pool: { path: "/a", side: "victim", subtree: true } },
        7200,
      ),
    ).toEqual([
      { bucket: hour(0), pool: "/a/x", out: 2, in: 0, within: 0 },
      { bucket: hour(0), pool: "/a/y", out: 0, in: 3, within: 0 },
    ]);
    // The busiest pool keeps its name; the others are summed under null.
    expect(await gateway.preemptions.countsByPool(all, 7200, { topPools: 1 })).toEqual([
      { bucket: hour(0), pool: "/a/y", out: 0, in: 3, within: 0 },
      { bucket: hour(0), pool: null, out: 3, in: 0, within: 1 },
    ]);
    // A day's bucket reads the daily counts.
    expect(await gateway.preemptions.countsByPool({ since: day }, 86400)).toEqual([
      { bucket: day, pool: "/a/x", out: 2, in: 0, within: 0 },
      { bucket: day, pool: "/a/y", out: 0, in: 3, within: 0 },
      { bucket: day, pool: "/b", out: 1, in: 0, within: 1 },
    ]);
  });
});

describe("markRescheduled", () => {
  it("marks when the victim runs again: the same run after PENDING, a later run after a kill", async () => {
    const w = await world();
    const killed = w.etl[0]!; // RUNNING → PREEMPTING: its next run must be a new one
    const sentBack = w.etl[2]!; // READY → PENDING: the same run may come back
    const { recorded } = await record(gateway, [
      row(killed, minutes(1), w.pools["/a/y"]),
      row(sentBack, minutes(1), w.pools["/a/y"]),
    ]);
    const mark = (t: Task, run: number, at: Date) =>
      gateway.transaction((tx) => tx.preemptions.markRescheduled(t.id, run, at));

    expect(await mark(killed, 1, minutes(2))).toBe(0); // a late RUNNING of the killed run
    expect(await mark(sentBack, 1, minutes(0))).toBe(0); // before the preemption
    expect(await mark(sentBack, 1, minutes(3))).toBe(1);
    expect(await mark(killed, 2, minutes(4))).toBe(1);
    expect(await mark(killed, 3, minutes(9))).toBe(0); // already marked: the first return counts

    const [k, s] = await Promise.all(recorded.map((r) => gateway.preemptions.get(r.id)));
    expect(k?.rescheduled).toEqual({ at: minutes(4), runId: 2 });
    expect(s?.rescheduled).toEqual({ at: minutes(3), runId: 1 });
  });
});

describe("markRescheduledMany", () => {
  it("marks only the victims among many runs that reached RUNNING, in one statement", async () => {
    const w = await world();
    const [killed, , sentBack, never] = w.etl as [Task, Task, Task, Task];
    const { recorded } = await record(gateway, [
      row(killed, minutes(1), w.pools["/a/y"]),
      row(sentBack, minutes(1), w.pools["/a/y"]),
    ]);
    const marked = await gateway.transaction((tx) =>
      tx.preemptions.markRescheduledMany([
        { taskId: killed.id, runId: 1, at: minutes(2) }, // the killed run itself: not back
        { taskId: sentBack.id, runId: 1, at: minutes(3) },
        { taskId: never.id, runId: 1, at: minutes(3) }, // never preempted
        { taskId: w.web[0]!.id, runId: 2, at: minutes(3) },
      ]),
    );
    expect(marked).toBe(1);
    const [k, s] = await Promise.all(recorded.map((r) => gateway.preemptions.get(r.id)));
    expect(k?.rescheduled).toBeNull();
    expect(s?.rescheduled).toEqual({ at: minutes(3), runId: 1 });
    expect(await gateway.transaction((tx) => tx.preemptions.markRescheduledMany([]))).toBe(0);
  });
});

describe("preemptorReads", () => {
  it("reads usage per pool and state in a few rows, with the lowest preemptible priority", async () => {
    const w = await world();
    const rows = await gateway.preemptorReads.usage();
    const key = (r: { poolId: string; state: string }) => `${r.poolId} ${r.state}`;
    expect(
      rows.map((r) => `${key(r)} ${r.tasks} ${r.resources.cpu} ${r.minPreemptiblePriority}`).sort(),
    ).toEqual(
      [
        `${w.pools["/a/x"].id} READY 1 2 1`,
        `${w.pools["/a/x"].id} RUNNING 3 6 1`,
        `${w.pools["/b"].id} PLACING 1 2 1`,
        `${w.pools["/b"].id} RUNNING 1 2 1`,
      ].sort(),
    );
    expect(rows.every((r) => r.revocable === false)).toBe(true);
  });

  it("reads the candidates of the pools asked for only, and the PENDING tasks", async () => {
    const w = await world();
    const rows = await gateway.preemptorReads.candidates([w.pools["/a/x"].id]);
    expect(rows.map((r) => `${r.jobName}/${r.instanceId} ${r.state}`).sort()).toEqual([
      "etl/0 RUNNING",
      "etl/1 RUNNING",
      "etl/2 READY",
      "etl/3 RUNNING",
    ]);
    const etl0 = rows.find((r) => r.taskId === w.etl[0]!.id)!;
    expect(etl0).toMatchObject({
      jobId: w.etl[0]!.jobId,
      poolId: w.pools["/a/x"].id,
      runId: 1,
      priority: 1,
      preemptible: true,
      revocable: false,
      controller: false,
      resources: { cpu: 2, gpu: 0, memory: 256, disk: 0 },
      startedAt: null,
      clusterTaskId: null,
    });
    expect(etl0.queuedAt).toBeInstanceOf(Date);
    expect(await gateway.preemptorReads.candidates([])).toEqual([]);
    expect(await gateway.preemptorReads.pending()).toEqual([]);
    // A victim sent back waits again; a killed one is no candidate any more.
    await record(gateway, [
      row(w.etl[0]!, minutes(1), w.pools["/a/y"]),
      row(w.etl[2]!, minutes(1), w.pools["/a/y"]),
    ]);
    expect((await gateway.preemptorReads.pending()).map((r) => r.taskId)).toEqual([w.etl[2]!.id]);
    const after = await gateway.preemptorReads.candidates([w.pools["/a/x"].id]);
    expect(after.map((r) => r.taskId).sort()).toEqual([w.etl[1]!.id, w.etl[3]!.id].sort());
  });

  it("reads them all at one instant in a snapshot transaction, which writes nothing", async () => {
    const w = await world();
    const seen = await gateway.snapshot(async (tx) => {
      const before = await tx.preemptorReads.usage();
      // A change committed meanwhile is not seen by the snapshot's later reads.
      await record(gateway, [row(w.etl[0]!, minutes(1), w.pools["/a/y"])]);
      const candidates = await tx.preemptorReads.candidates([w.pools["/a/x"].id]);
      return { before, candidates };
    });
    expect(seen.candidates.find((r) => r.taskId === w.etl[0]!.id)?.state).toBe("RUNNING");
    await expect(
      gateway.snapshot((tx) => tx.preemptions.markRescheduled(w.etl[0]!.id, 2, minutes(2))),
    ).rejects.toThrow(/read-only transaction/);
  });

  it("counts a job's instances against those running (its task counts)", async () => {
    const w = await world();
    await gateway.jobs.addTaskCounts([
      { jobId: w.etl[0]!.jobId, state: "RUNNING", delta: 3 },
      { jobId: w.etl[0]!.jobId, state: "READY", delta: 1 },
    ]);
    expect(await gateway.preemptorReads.availability([w.etl[0]!.jobId, w.web[0]!.jobId])).toEqual(
      expect.arrayContaining([
        { jobId: w.etl[0]!.jobId, instanceCount: 4, running: 3 },
        { jobId: w.web[0]!.jobId, instanceCount: 2, running: 0 },
      ]),
    );
    expect(await gateway.preemptorReads.availability([])).toEqual([]);
  });
});
