/**
 * `task_usage` against the tasks it sums: whatever statements write tasks
 * (inserts, moves, resource and flag changes, deletes, a job's delete and
 * its cascade), each key's total is what a scan of the tasks counts, before
 * and after compaction; and the pool usage reads built on it answer what
 * the scans they replaced answered.
 */
import { directSql as sql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { seededRandom } from "../../../bench/harness.ts";
import type { NewTask, PoolRecord } from "../src/index.ts";

const gateway = testGateway();
afterAll(() => gateway.close());

const KEY = "job_id::text, state::text, revocable, controller, preemptible, priority";

/** Each key's totals from task_usage, and from a scan of the tasks, in the same shape. */
async function totals() {
  const fromUsage = await sql(
    `SELECT ${KEY}, sum(tasks)::int AS tasks, sum(cpu_milli)::text AS cpu,
            sum(gpu_milli)::text AS gpu, sum(mem_milli)::text AS mem, sum(disk_milli)::text AS disk
     FROM task_usage GROUP BY ${KEY.replaceAll("::text", "")} HAVING sum(tasks) <> 0
     ORDER BY 1, 2, 3, 4, 5, 6`,
  );
  const fromTasks = await sql(
    `SELECT ${KEY}, count(*)::int AS tasks, sum(round(cpu * 1000)::bigint)::text AS cpu,
            sum(round(gpu * 1000)::bigint)::text AS gpu, sum(round(mem_mb * 1000)::bigint)::text AS mem,
            sum(round(disk_mb * 1000)::bigint)::text AS disk
     FROM tasks GROUP BY ${KEY.replaceAll("::text", "")} ORDER BY 1, 2, 3, 4, 5, 6`,
  );
  return { fromUsage, fromTasks };
}

async function usageRows(): Promise<number> {
  const [row] = await sql<{ n: number }>("SELECT count(*)::int AS n FROM task_usage");
  return row!.n;
}

async function pools(): Promise<{ a: PoolRecord; b: PoolRecord }> {
  const root = await gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "t",
  );
  const pool = (name: string) =>
    gateway.pools.create({ path: `/${name}`, name, parentId: root.id, resources: {} }, "t");
  return { a: await pool("a"), b: await pool("b") };
}

async function job(poolId: string, name: string, tasks: Omit<NewTask, "jobId">[]) {
  const created = await gateway.jobs.create({
    name,
    type: "BATCH",
    poolId,
    owner: "t",
    configYaml: `name: ${name}\n`,
    config: { name },
    instanceCount: tasks.length,
    state: "RUNNING",
  });
  await gateway.tasks.insertMany(tasks.map((t) => ({ ...t, jobId: created.id })));
  return created.id;
}

const task = (instanceId: number, over: Partial<NewTask> = {}): Omit<NewTask, "jobId"> => ({
  instanceId,
  state: "PENDING",
  goalState: "SUCCEEDED",
  priority: 0,
  preemptible: true,
  cpu: 0.1,
  memMb: 32,
  diskMb: 0,
  gpu: 0,
  ...over,
});

beforeEach(() => resetDatabase());

describe("task_usage", () => {
  it("totals what a scan of the tasks counts, through every kind of write and a compaction", async () => {
    const { a, b } = await pools();
    // Seeded, so a failure replays.
    const random = seededRandom(20);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const jobs: string[] = [];
    for (let j = 0; j < 6; j++)
      jobs.push(
        await job(
          j % 2 ? a.id : b.id,
          `j${j}`,
          Array.from({ length: 40 }, (_, i) =>
            task(i, {
              cpu: pick([0.1, 0.25, 1 / 3, 2, 0.0004]),
              memMb: pick([32, 128.5, 1000]),
              diskMb: pick([0, 10]),
              gpu: pick([0, 1]),
              revocable: random() < 0.3,
              controller: random() < 0.1,
              preemptible: random() < 0.8,
              priority: pick([0, 1, 5]),
            }),
          ),
        ),
      );
    const states = ["PENDING", "LAUNCHED", "RUNNING", "KILLING", "SUCCEEDED", "FAILED"];
    for (let step = 0; step < 60; step++) {
      const jobId = pick(jobs);
      const from = Math.floor(random() * 30);
      const range = [jobId, from, from + Math.floor(random() * 10)];
      switch (step % 5) {
        case 0:
          await sql(
            `UPDATE tasks SET state = $4::"TaskState" WHERE job_id = $1 AND instance_id BETWEEN $2 AND $3`,
            [...range, pick(states)],
          );
          break;
        case 1:
          // A statement that changes nothing the usage counts (a message) adds no row.
          await sql(
            `UPDATE tasks SET message = 'seen' WHERE job_id = $1 AND instance_id BETWEEN $2 AND $3`,
            range,
          );
          break;
        case 2:
          await sql(
            `UPDATE tasks SET cpu = cpu + 0.5, mem_mb = mem_mb * 2, revocable = NOT revocable
             WHERE job_id = $1 AND instance_id BETWEEN $2 AND $3`,
            range,
          );
          break;
        case 3:
          await sql(`DELETE FROM tasks WHERE job_id = $1 AND instance_id BETWEEN $2 AND $3`, range);
          break;
        case 4:
          await sql(
            `UPDATE tasks SET state = CASE WHEN instance_id % 2 = 0 THEN 'RUNNING'::"TaskState"
                                           ELSE 'PENDING'::"TaskState" END, priority = priority + 1
             WHERE job_id = $1`,
            [jobId],
          );
          break;
      }
    }
    // A job's delete: its tasks go by the foreign key's cascade.
    await sql(`DELETE FROM jobs WHERE id = $1`, [jobs[0]]);

    const before = await totals();
    expect(before.fromUsage).toEqual(before.fromTasks);
    const rowsBefore = await usageRows();

    const removed = await gateway.taskUsage.compact();
    const after = await totals();
    expect(after.fromUsage).toEqual(before.fromTasks);
    // One row per key that still has tasks: the deleted job's and the emptied keys' are gone.
    expect(await usageRows()).toBe(after.fromTasks.length);
    expect(removed).toBe(rowsBefore - after.fromTasks.length);
    // Nothing left to fold.
    expect(await gateway.taskUsage.compact()).toBe(0);
  });

  it("answers the pool usage reads as the scans of the tasks they replaced did", async () => {
    const { a, b } = await pools();
    const web = await job(a.id, "web", [
      ...[0, 1, 2].map((i) => task(i, { state: "RUNNING", preemptible: false, priority: 3 })),
      task(3, { state: "PENDING" }),
      task(4, { state: "LAUNCHED", revocable: true, cpu: 2, memMb: 256 }),
      task(5, { state: "SUCCEEDED", cpu: 8 }),
    ]);
    await job(b.id, "batch", [
      task(0, { state: "RUNNING", controller: true, priority: 1 }),
      task(1, { state: "RUNNING", priority: 2 }),
      task(2, { state: "PENDING", gpu: 1 }),
    ]);
    // Writes after the first ones, and a compaction between them, change nothing below.
    await gateway.taskUsage.compact();
    await sql(`UPDATE tasks SET message = 'x' WHERE job_id = $1`, [web]);

    const usage = new Map((await gateway.tasks.usageByPool()).map((u) => [u.poolId, u]));
    expect(usage.get(a.id)).toEqual({
      poolId: a.id,
      // 3 × 0.1 is 0.3 exactly: sums are taken in thousandths.
      allocation: { cpu: 0.3, gpu: 0, memory: 96, disk: 0 },
      demand: { cpu: 0.1, gpu: 0, memory: 32, disk: 0 },
      slackAllocation: { cpu: 2, gpu: 0, memory: 256, disk: 0 },
      slackDemand: { cpu: 0, gpu: 0, memory: 0, disk: 0 },
    });
    expect(usage.get(b.id)?.demand).toEqual({ cpu: 0.1, gpu: 1, memory: 32, disk: 0 });

    const held = new Map((await gateway.admissionReads.heldByPool()).map((h) => [h.poolId, h]));
    expect(held.get(a.id)).toMatchObject({
      nonRevocable: { cpu: 0.3, memory: 96 },
      slack: { cpu: 2, memory: 256 },
      nonPreemptible: { cpu: 0.3, memory: 96 },
    });
    expect(held.get(b.id)).toMatchObject({
      nonRevocable: { cpu: 0.2, memory: 64 },
      controller: { cpu: 0.1, memory: 32 },
    });

    const byState = await gateway.preemptorReads.usage();
    const running = byState.find((r) => r.poolId === b.id && r.state === "RUNNING");
    expect(running).toMatchObject({ tasks: 2, minPreemptiblePriority: 1 });
    // The preemptible ones only: web's RUNNING tasks are not.
    expect(
      byState.find((r) => r.poolId === a.id && r.state === "RUNNING")?.minPreemptiblePriority,
    ).toBeNull();

    expect(await gateway.tasks.countByState()).toEqual({
      RUNNING: 5,
      PENDING: 2,
      LAUNCHED: 1,
      SUCCEEDED: 1,
    });
    const summary = await gateway.overview.clusterSummary();
    expect(summary.tasks).toBe(9);
    expect(summary.allocation).toMatchObject({ cpu: 2.5, gpu: 0, memory: 416 });
  });
});
