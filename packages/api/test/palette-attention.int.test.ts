/**
 * The command palette's search (id prefix, cluster task id, owner, label,
 * volumes) and the overview's "needs attention", on a real database; and
 * that their reads use indexes (EXPLAIN), not scans of the task table.
 */
import { CRASH_LOOP_REASON } from "@peloton/engine";
import { testContext } from "@peloton/test-support/api/context.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { givenHost } from "./support/cluster.ts";
import { batchYaml } from "./support/jobs.ts";

const ctx = testContext();
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

async function job(name: string, extra = ""): Promise<string> {
  const pool = (await ctx.gateway.pools.getByPath("/batch"))
    ? "/batch"
    : await leafPool(ctx.gateway);
  const { id } = await caller.jobs.create({
    pool,
    yaml: `${batchYaml({ name, instances: 2 })}${extra}`,
  });
  return id;
}

describe("search.query for the command palette", () => {
  it("finds a job by the id prefix the lists show, with what its actions need", async () => {
    const id = await job("prefix-me");
    const hits = await caller.search.query({ q: id.slice(0, 8) });
    expect(hits[0]).toMatchObject({
      kind: "job",
      label: "prefix-me",
      href: `/jobs/${id}`,
      target: { type: "job", id, poolPath: "/batch", state: "PENDING", version: 1 },
    });
    // With its dash, upper case, or the whole id: the same job.
    expect((await caller.search.query({ q: id.slice(0, 13).toUpperCase() }))[0]?.href).toBe(
      `/jobs/${id}`,
    );
    // Three hex digits are too few to be read as an id.
    const short = await caller.search.query({ q: id.slice(0, 3) });
    expect(short.every((h) => h.kind !== "job" || h.label.includes(id.slice(0, 3)))).toBe(true);
  });

  it("finds jobs by owner and by label", async () => {
    const id = await job("labelled", "labels:\n  - key: team\n    value: search\n");
    const [byOwner] = await caller.search.query({ q: "owner:alice" });
    expect(byOwner).toMatchObject({ kind: "job", target: { id } });
    expect(await caller.search.query({ q: "label:team=search" })).toEqual([
      expect.objectContaining({ kind: "job", href: `/jobs/${id}` }),
    ]);
    expect(await caller.search.query({ q: "team=nobody" })).toEqual([]);
  });

  it("finds a task by its cluster task id, also an earlier run's", async () => {
    const id = await job("cluster-ids");
    await directSql(
      "UPDATE tasks SET mesos_task_id = $1, run_id = 2 WHERE job_id = $2 AND instance_id = 1",
      [`${id}-1-2`, id],
    );
    expect(await caller.search.query({ q: `${id}-1-2` })).toEqual([
      expect.objectContaining({
        kind: "task",
        label: "cluster-ids/1",
        href: `/jobs/${id}/tasks/1`,
        target: expect.objectContaining({
          type: "task",
          jobId: id,
          instance: 1,
          poolPath: "/batch",
        }),
      }),
    ]);
    // Run 1's id is no task's current id any more: it still names instance 1.
    expect((await caller.search.query({ q: `${id}-1-1` }))[0]?.href).toBe(`/jobs/${id}/tasks/1`);
    expect(await caller.search.query({ q: `${id}-7-1` })).toEqual([]);
  });

  it("refuses a query too long, naming the field", async () => {
    await expect(caller.search.query({ q: "x".repeat(10_000) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.search.query({ q: "x", limit: 500 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("reads by index: a job id range, an owner, a cluster task id (EXPLAIN)", async () => {
    await job("explained");
    // A planner picks a scan for tiny tables; forbidding it shows whether an index can serve.
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    await client.query("SET enable_seqscan = off");
    const plan = async (sql: string, params: unknown[]) =>
      (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params)).rows
        .map((r) => r["QUERY PLAN"])
        .join("\n");
    const byId = await plan("SELECT id FROM jobs WHERE id BETWEEN $1::uuid AND $2::uuid", [
      "1a2b0000-0000-0000-0000-000000000000",
      "1a2bffff-ffff-ffff-ffff-ffffffffffff",
    ]);
    expect(byId).toMatch(/Index/);
    const byTask = await plan("SELECT id FROM tasks WHERE mesos_task_id = $1", ["x-1-1"]);
    expect(byTask).toMatch(/Index/);
    const crash = await plan(
      "SELECT job_id FROM tasks WHERE reason = $1 AND state = 'INITIALIZED'",
      [CRASH_LOOP_REASON],
    );
    expect(crash).toMatch(/Index/);
    const stuck = await plan(
      "SELECT job_id FROM tasks WHERE state = 'PENDING' AND queued_at < now() ORDER BY queued_at LIMIT 10",
      [],
    );
    expect(stuck).toMatch(/Index/);
    for (const p of [byId, byTask, crash, stuck]) expect(p).not.toMatch(/Seq Scan/);
    await client.end();
  });
});

describe("overview.attention", () => {
  it("lists a drained host, a crash-looping service, stuck pending runs and a failed update", async () => {
    await givenHost(ctx.gateway, "node-a.test", { cpu: 8, memMb: 8192 });
    await givenHost(ctx.gateway, "node-b.test", { cpu: 8, memMb: 8192 });
    await caller.hosts.startMaintenance({ hostname: "node-b.test", reason: "disk swap" });
    const looping = await job("looping-service");
    await directSql("UPDATE tasks SET state = 'INITIALIZED', reason = $1 WHERE job_id = $2", [
      CRASH_LOOP_REASON,
      looping,
    ]);
    const waiting = await job("waiting-long");
    await directSql(
      "UPDATE tasks SET state = 'PENDING', queued_at = now() - interval '2 hours' WHERE job_id = $1",
      [waiting],
    );
    await directSql(
      `INSERT INTO job_updates (id, job_id, state, from_config_version, to_config_version,
         batch_size, from_instance_count, to_instance_count, actor, updated_at, created_at)
       VALUES (gen_random_uuid(), $1, 'FAILED', 1, 2, 1, 2, 2, 'alice', now(), now())`,
      [waiting],
    );

    const a = await caller.overview.attention({ pendingForSeconds: 3600 });
    expect(a.hosts).toEqual([
      expect.objectContaining({
        hostname: "node-b.test",
        state: "DRAINING",
        stateReason: "disk swap",
      }),
    ]);
    expect(a.crashLooping).toEqual([
      expect.objectContaining({ jobId: looping, jobName: "looping-service", instances: 2 }),
    ]);
    expect(a.stuckPending).toEqual([
      expect.objectContaining({ jobId: waiting, jobName: "waiting-long", instances: 2 }),
    ]);
    expect(a.failedUpdates).toEqual([expect.objectContaining({ jobId: waiting })]);

    // Two hours is not "stuck" when the threshold is a day.
    expect((await caller.overview.attention({ pendingForSeconds: 86_400 })).stuckPending).toEqual(
      [],
    );
  });

  it("refuses a threshold out of range, naming the field", async () => {
    await expect(caller.overview.attention({ pendingForSeconds: 5 })).rejects.toThrow(
      /pendingForSeconds is at least 60/,
    );
  });

  it("records a host lost in the audit log, as the system", async () => {
    await givenHost(ctx.gateway, "node-c.test", { cpu: 4 });
    await ctx.gateway.hosts.markAgentsLost(["agent-node-c.test"], "agent lost");
    const page = await caller.audit.list({ action: "host.lost" });
    expect(page.items).toEqual([
      expect.objectContaining({
        actor: "system",
        targetId: "node-c.test",
        before: { state: "UP", reason: null },
        after: { state: "LOST", reason: "agent lost" },
      }),
    ]);
    // Already LOST: no second row.
    await ctx.gateway.hosts.markAgentsLost(["agent-node-c.test"], "agent lost");
    expect((await caller.audit.list({ action: "host.lost" })).items).toHaveLength(1);
  });

  it("names jobs in the audit list", async () => {
    const id = await job("named-in-audit");
    const page = await caller.audit.list({ targetType: "job" });
    expect(page.items[0]).toMatchObject({ targetId: id, targetName: "named-in-audit" });
  });
});
