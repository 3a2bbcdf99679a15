import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { NewTask } from "../src/index.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

async function rootAndPool() {
  return gateway.transaction(async (tx) => {
    const root = await tx.pools.create(
      { path: "/", name: "root", parentId: null, resources: {} },
      "test",
    );
    const pool = await tx.pools.create(
      {
        path: "/team",
        name: "team",
        parentId: root.id,
        owningTeam: "team6",
        resources: { cpu: { reservation: 10, limit: 20, share: 2 } },
      },
      "alice",
    );
    return { root, pool };
  });
}

function task(jobId: string, instanceId: number, state: NewTask["state"]): NewTask {
  return {
    jobId,
    instanceId,
    state,
    goalState: "SUCCEEDED",
    priority: 0,
    preemptible: true,
    cpu: 1,
    memMb: 128,
    diskMb: 10,
    gpu: 0,
  };
}

describe("pools repository", () => {
  it("creates a pool with its resources, filling absent kinds the way Peloton does", async () => {
    const { pool } = await rootAndPool();
    expect(pool.resources.cpu).toEqual({ reservation: 10, limit: 20, share: 2, type: "ELASTIC" });
    // Absent kinds: reservation 0, limit 0, share 1 (peloton-semantics.md §1, data contract).
    expect(pool.resources.gpu).toEqual({ reservation: 0, limit: 0, share: 1, type: "ELASTIC" });
    expect((await gateway.pools.getByPath("/team"))?.owningTeam).toBe("team6");
  });

  it("writes a CREATE change row with the actor and the whole pool", async () => {
    await rootAndPool();
    const { pool } = { pool: await gateway.pools.getByPath("/team") };
    expect(pool).not.toBeNull();
    const summary = await gateway.overview.clusterSummary();
    expect(summary.pools).toBe(2);
  });

  it("rolls the pool back when its transaction fails (no pool without its history)", async () => {
    await expect(
      gateway.transaction(async (tx) => {
        await tx.pools.create({ path: "/", name: "root", parentId: null, resources: {} }, "test");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await gateway.pools.count()).toBe(0);
  });

  it("refuses two pools with one path", async () => {
    await rootAndPool();
    await expect(
      gateway.pools.create({ path: "/team", name: "team", parentId: null, resources: {} }, "bob"),
    ).rejects.toThrow();
  });

  it("searches pools by path, case-insensitively, never returning the root", async () => {
    await rootAndPool();
    expect((await gateway.pools.search("TEA", 10)).map((p) => p.path)).toEqual(["/team"]);
    expect(await gateway.pools.search("/", 10)).toHaveLength(1);
  });
});

describe("overview repository", () => {
  it("counts jobs, tasks and hosts by state, capacity of live hosts and allocation of admitted tasks", async () => {
    const { pool } = await rootAndPool();
    const job = await gateway.jobs.create({
      name: "sleep",
      type: "BATCH",
      poolId: pool.id,
      owner: "alice",
      configYaml: "name: sleep",
      config: { name: "sleep" },
      instanceCount: 4,
      state: "RUNNING",
    });
    await gateway.tasks.insertMany([
      task(job.id, 0, "RUNNING"),
      task(job.id, 1, "RUNNING"),
      task(job.id, 2, "PENDING"),
      task(job.id, 3, "SUCCEEDED"),
    ]);
    const host = {
      attributes: { zone: "a" },
      memMb: 1000,
      diskMb: 5000,
      gpu: 0,
      ports: [[31000, 32000]] as [number, number][],
    };
    await gateway.hosts.upsert({ ...host, hostname: "h1", agentId: "a1", cpu: 8, state: "UP" });
    await gateway.hosts.upsert({ ...host, hostname: "h2", agentId: "a2", cpu: 8, state: "DOWN" });

    const s = await gateway.overview.clusterSummary();
    expect(s).toMatchObject({
      pools: 2,
      jobs: 1,
      jobsByState: { RUNNING: 1 },
      tasks: 4,
      tasksByState: { RUNNING: 2, PENDING: 1, SUCCEEDED: 1 },
      hosts: 2,
      hostsByState: { UP: 1, DOWN: 1 },
    });
    // Only the UP host counts as capacity; only the two RUNNING tasks hold resources.
    expect(s.capacity).toEqual({ cpu: 8, gpu: 0, memory: 1000, disk: 5000 });
    expect(s.allocation).toEqual({ cpu: 2, gpu: 0, memory: 256, disk: 20 });
  });
});

describe("tasks repository", () => {
  it("inserts a batch in one statement and keeps (job, instance) unique", async () => {
    const { pool } = await rootAndPool();
    const job = await gateway.jobs.create({
      name: "big",
      type: "BATCH",
      poolId: pool.id,
      owner: "alice",
      configYaml: "",
      config: {},
      instanceCount: 1000,
    });
    const batch = Array.from({ length: 1000 }, (_, i) => task(job.id, i, "PENDING"));
    expect(await gateway.tasks.insertMany(batch)).toBe(1000);
    expect(await gateway.tasks.countByState()).toEqual({ PENDING: 1000 });
    await expect(gateway.tasks.insertMany([task(job.id, 5, "PENDING")])).rejects.toThrow();
    expect(await gateway.tasks.insertMany([])).toBe(0);
  });
});

describe("entitlement samples repository", () => {
  it("keeps the last sample of each bucket, and the last one before the range per kind", async () => {
    const { pool } = await rootAndPool();
    const from = new Date("2026-06-01T00:00:00Z");
    const at = (s: number) => new Date(from.getTime() + s * 1000);
    const sample = (s: number, entitlement: number, kind: "cpu" | "gpu" = "cpu") => ({
      poolId: pool.id,
      kind,
      at: at(s),
      entitlement,
      slackEntitlement: 0,
      allocation: 0,
      demand: 0,
      reservation: 10,
      limit: 20,
    });
    await gateway.entitlementSamples.insertMany([
      sample(-50, 1),
      sample(-20, 2),
      sample(-10, 9, "gpu"),
      sample(1, 3),
      sample(4, 4), // same 5 s bucket as 1 s: the later one stays
      sample(7, 5),
      sample(31, 6), // after the range
    ]);
    const series = await gateway.entitlementSamples.series(pool.id, {
      from,
      to: at(30),
      bucketMs: 5000,
    });
    expect(series.previous.map((s) => [s.kind, s.entitlement])).toEqual([
      ["cpu", 2],
      ["gpu", 9],
    ]);
    expect(series.samples.map((s) => s.entitlement)).toEqual([4, 5]);
    expect(await gateway.entitlementSamples.deleteOlderThan(from)).toBe(3);
  });
});

describe("hosts repository", () => {
  it("counts UP and DRAINING hosts as capacity, not DRAINED or DOWN ones", async () => {
    const host = (hostname: string, state: "UP" | "DRAINING" | "DRAINED" | "DOWN") =>
      gateway.hosts.upsert({
        hostname,
        agentId: `a-${hostname}`,
        attributes: {},
        cpu: 8,
        memMb: 100,
        diskMb: 10,
        gpu: 1,
        ports: [],
        state,
      });
    await host("up", "UP");
    await host("draining", "DRAINING");
    await host("drained", "DRAINED");
    await host("down", "DOWN");
    expect(await gateway.hosts.capacity()).toEqual({
      hosts: 2,
      capacity: { cpu: 16, gpu: 2, memory: 200, disk: 20 },
    });
  });
});
