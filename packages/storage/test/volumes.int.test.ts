/** Reading persistent volumes (console `/volumes`): pinned and created the way the placement loop does. */

import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { VolumeListQuery, VolumePin, VolumeRecord } from "../src/index.ts";
import "@peloton/test-support/storage/provided-context.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

/**
 * Two stateful jobs: "ledger" with 12 instances (so instance 10 must come
 * after 2, not between 1 and 2 as the ids' text would put it) spread over
 * h1 and h2, and "cache" with 3 on h2 (64 MB each); ledger's volumes 1024 MB.
 * Every volume but ledger's last two has been created by its first launch.
 */
async function statefulCluster() {
  const pool = await gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "test",
  );
  const jobs: Record<string, string> = {};
  const pins: VolumePin[] = [];
  for (const [name, instances, sizeMb] of [
    ["ledger", 12, 1024],
    ["cache", 3, 64],
  ] as const) {
    const job = await gateway.jobs.create({
      name,
      type: "STATEFUL",
      poolId: pool.id,
      owner: "alice",
      configYaml: `name: ${name}`,
      config: { name },
      instanceCount: instances,
      state: "RUNNING",
    });
    jobs[name] = job.id;
    await gateway.tasks.insertMany(
      Array.from({ length: instances }, (_, i) => ({
        jobId: job.id,
        instanceId: i,
        state: "RUNNING" as const,
        goalState: "RUNNING" as const,
        priority: 0,
        preemptible: false,
        cpu: 1,
        memMb: 128,
        diskMb: sizeMb,
        gpu: 0,
      })),
    );
    for (let i = 0; i < instances; i++) {
      const task = await gateway.taskReads.get(job.id, i);
      const hostname = name === "cache" || i % 2 === 1 ? "h2" : "h1";
      pins.push({
        id: `${job.id}-${i}`,
        jobId: job.id,
        instanceId: i,
        taskId: task!.id,
        hostname,
        agentId: `agent-${hostname}`,
        sizeMb,
        containerPath: name === "cache" ? "cache" : "/var/lib/ledger",
      });
    }
  }
  await gateway.volumes.pin(pins);
  await gateway.volumes.markCreated(
    pins.filter((p) => !(p.jobId === jobs.ledger && p.instanceId >= 10)).map((p) => p.id),
  );
  return { ledger: jobs.ledger!, cache: jobs.cache! };
}

/** Every page of a query, following the cursor. */
async function allPages(q: Omit<VolumeListQuery, "cursor">): Promise<VolumeRecord[]> {
  const seen: VolumeRecord[] = [];
  let cursor: string | null = null;
  do {
    const page = await gateway.volumeReads.list({ ...q, cursor });
    seen.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

const label = (v: VolumeRecord) => `${v.jobName}/${v.instanceId}`;

describe("volume reads", () => {
  it("pages through every volume once, by job name then instance in number order", async () => {
    await statefulCluster();
    const seen = await allPages({ limit: 4 });
    expect(seen.map(label)).toEqual([
      "cache/0",
      "cache/1",
      "cache/2",
      ...Array.from({ length: 12 }, (_, i) => `ledger/${i}`),
    ]);
    expect(seen[3]).toMatchObject({
      jobName: "ledger",
      jobState: "RUNNING",
      hostname: "h1",
      agentId: "agent-h1",
      sizeMb: 1024,
      containerPath: "/var/lib/ledger",
      state: "CREATED",
    });
    expect(seen[3]!.taskId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sorts by host, size or state either way, ties by job and instance, the same across pages", async () => {
    await statefulCluster();
    for (const sort of ["host", "size", "state", "createdAt"] as const) {
      for (const order of ["asc", "desc"] as const) {
        const whole = (await gateway.volumeReads.list({ sort, order, limit: 100 })).items;
        const paged = await allPages({ sort, order, limit: 3 });
        expect(
          paged.map((v) => v.id),
          `${sort} ${order}`,
        ).toEqual(whole.map((v) => v.id));
        expect(new Set(paged.map((v) => v.id)).size).toBe(15);
      }
    }
    const byHost = await allPages({ sort: "host", order: "desc", limit: 5 });
    // h2: cache's three, then ledger's odd instances; h1: ledger's even ones — each group descending.
    expect(byHost.slice(0, 3).map(label)).toEqual(["ledger/11", "ledger/9", "ledger/7"]);
    expect(byHost.at(-1)).toMatchObject({ hostname: "h1", jobName: "ledger", instanceId: 0 });
    const byState = await allPages({ sort: "state", limit: 4 });
    // INITIALIZED comes before CREATED (the enum's, i.e. the lifecycle's, order).
    expect(byState.slice(0, 2).map((v) => [label(v), v.state])).toEqual([
      ["ledger/10", "INITIALIZED"],
      ["ledger/11", "INITIALIZED"],
    ]);
  });

  it("filters by state, host, job and part of the id or job name", async () => {
    const { ledger, cache } = await statefulCluster();
    const ids = async (q: Omit<VolumeListQuery, "limit">) =>
      (await gateway.volumeReads.list({ ...q, limit: 100 })).items.map(label);
    expect(await ids({ states: ["INITIALIZED"] })).toEqual(["ledger/10", "ledger/11"]);
    expect(await ids({ states: ["DELETED"] })).toEqual([]);
    expect(await ids({ hostname: "h1", states: ["CREATED"] })).toEqual(
      [0, 2, 4, 6, 8].map((i) => `ledger/${i}`),
    );
    expect(await ids({ jobId: cache })).toEqual(["cache/0", "cache/1", "cache/2"]);
    expect(await ids({ jobId: cache, hostname: "h1" })).toEqual([]);
    expect(await ids({ text: "CACH" })).toEqual(["cache/0", "cache/1", "cache/2"]);
    expect(await ids({ text: `${ledger}-1` })).toEqual(["ledger/1", "ledger/10", "ledger/11"]);
    // A LIKE wildcard in the text is matched literally.
    expect(await ids({ text: "%" })).toEqual([]);
  });

  it("starts over on a cursor that is not one of this sort's", async () => {
    await statefulCluster();
    const byJob = await gateway.volumeReads.list({ limit: 2 });
    const bySize = await gateway.volumeReads.list({ sort: "size", limit: 2 });
    const mixed = await gateway.volumeReads.list({ limit: 2, cursor: bySize.nextCursor });
    const garbage = await gateway.volumeReads.list({ limit: 2, cursor: "not-a-cursor" });
    expect(mixed.items.map(label)).toEqual(byJob.items.map(label));
    expect(garbage.items.map(label)).toEqual(byJob.items.map(label));
  });

  it("finds one instance's volume, and the hosts and jobs that hold volumes", async () => {
    const { ledger, cache } = await statefulCluster();
    expect(await gateway.volumeReads.forInstance(ledger, 11)).toMatchObject({
      id: `${ledger}-11`,
      hostname: "h2",
      state: "INITIALIZED",
    });
    expect(await gateway.volumeReads.forInstance(ledger, 12)).toBeNull();
    expect(await gateway.volumeReads.facets()).toEqual({
      hosts: [
        { hostname: "h2", volumes: 9 },
        { hostname: "h1", volumes: 6 },
      ],
      jobs: [
        { id: ledger, name: "ledger", volumes: 12 },
        { id: cache, name: "cache", volumes: 3 },
      ],
    });
  });

  it("a deleted instance's volume is unwanted; once destroyed it leaves the default list; a re-pin revives it", async () => {
    const { cache } = await statefulCluster();
    const db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    try {
      const [zero, one] = [`${cache}-0`, `${cache}-1`];
      const standing = async () =>
        (await gateway.volumes.standing([zero, one, "not-ours"])).sort((a, b) =>
          a.id.localeCompare(b.id),
        );
      expect(await standing()).toEqual([
        { id: zero, unwanted: false },
        { id: one, unwanted: false },
      ]);
      // Instance 1 deleted, but its run not over yet: still wanted (a volume in use is not destroyed).
      const setTask = (state: string, goal: string) =>
        db.query(
          `UPDATE tasks SET state = $1::"TaskState", goal_state = $2::"GoalState"
           WHERE job_id = $3 AND instance_id = 1`,
          [state, goal, cache],
        );
      await setTask("KILLING", "DELETED");
      await gateway.volumes.markDeleted([one]);
      expect((await standing())[1]).toEqual({ id: one, unwanted: false });
      await setTask("DELETED", "DELETED");
      expect((await standing())[1]).toEqual({ id: one, unwanted: true });

      await gateway.volumes.markDeleted([one]);
      const listed = async (q: Omit<VolumeListQuery, "limit"> = {}) =>
        (await gateway.volumeReads.list({ ...q, jobId: cache, limit: 10 })).items.map(
          (v) => `${v.instanceId} ${v.state}`,
        );
      expect(await listed()).toEqual(["0 CREATED", "2 CREATED"]);
      expect(await listed({ states: ["DELETED"] })).toEqual(["1 DELETED"]);
      expect((await standing())[1]).toEqual({ id: one, unwanted: true });

      // Scaled back up: the instance's next placement pins its volume again.
      await setTask("READY", "RUNNING");
      const task = await gateway.taskReads.get(cache, 1);
      await gateway.volumes.pin([
        {
          id: one,
          jobId: cache,
          instanceId: 1,
          taskId: task!.id,
          hostname: "h3",
          agentId: "agent-h3",
          sizeMb: 64,
          containerPath: "cache",
        },
      ]);
      expect(await listed()).toEqual(["0 CREATED", "1 INITIALIZED", "2 CREATED"]);
      expect((await standing())[1]).toEqual({ id: one, unwanted: false });
    } finally {
      await db.end();
    }
  });
});
