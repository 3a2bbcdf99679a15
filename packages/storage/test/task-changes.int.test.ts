/** The task writer's one statement: every kind of column, events in order, and the guard. */

import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createDb } from "../src/client.ts";
import type { TaskChange } from "../src/index.ts";
import { taskChangesRepository } from "../src/repositories/task-changes.ts";
import "@peloton/test-support/storage/provided-context.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

/** A job of `count` LAUNCHED instances; each task's ids and run. */
async function launchedTasks(count: number) {
  const pool = await gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "test",
  );
  const job = await gateway.jobs.create({
    name: "web",
    type: "SERVICE",
    poolId: pool.id,
    owner: "alice",
    configYaml: "name: web",
    config: { name: "web" },
    instanceCount: count,
    state: "RUNNING",
  });
  await gateway.tasks.insertMany(
    Array.from({ length: count }, (_, instanceId) => ({
      jobId: job.id,
      instanceId,
      state: "LAUNCHED" as const,
      goalState: "RUNNING" as const,
      priority: 0,
      preemptible: false,
      cpu: 1,
      memMb: 128,
      diskMb: 0,
      gpu: 0,
    })),
  );
  return Promise.all(
    Array.from({ length: count }, async (_, instanceId) => {
      const task = (await gateway.taskReads.get(job.id, instanceId))!;
      return { jobId: job.id, taskId: task.id, runId: task.runId, instanceId };
    }),
  );
}

async function oneTask() {
  const [task] = await launchedTasks(1);
  return task!;
}

const at = new Date("2026-11-25T07:00:00.123Z");
const tricky = 'a "quoted", {braced} \\ message: ünïcødé ✓';

function running(t: { jobId: string; taskId: string; runId: number }): TaskChange {
  const event = {
    runId: t.runId,
    clusterTaskId: "web-0-1",
    source: "HOST_MANAGER",
    hostname: "h1",
    agentId: "agent-1",
    at,
  };
  return {
    taskId: t.taskId,
    jobId: t.jobId,
    instanceId: 0,
    expect: { state: "LAUNCHED", runId: t.runId },
    state: "RUNNING",
    reason: "REASON_X",
    message: tricky,
    set: {
      ports: { http: 31000, 'odd "name"': 31001 },
      startedAt: at,
      finishedAt: null,
      hostname: "h1",
      failureCount: 2,
      previousHost: null,
    },
    events: [
      { ...event, previousState: "LAUNCHED", state: "STARTING", reason: null, message: null },
      {
        ...event,
        previousState: "STARTING",
        state: "RUNNING",
        reason: "REASON_X",
        message: tricky,
      },
    ],
  };
}

describe("taskChanges.apply", () => {
  it("writes every kind of column and the events in order, then refuses the same change again", async () => {
    const t = await oneTask();
    const first = await gateway.transaction((tx) => tx.taskChanges.apply([running(t)]));
    expect(first.applied).toHaveLength(1);
    expect(first.countDeltas).toEqual(
      expect.arrayContaining([
        { jobId: t.jobId, state: "LAUNCHED", delta: -1 },
        { jobId: t.jobId, state: "RUNNING", delta: 1 },
      ]),
    );
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT state::text, reason, message, ports, started_at, finished_at, hostname,
                failure_count, previous_host FROM tasks WHERE id = $1`,
        [t.taskId],
      );
      expect(rows[0]).toEqual({
        state: "RUNNING",
        reason: "REASON_X",
        message: tricky,
        ports: { http: 31000, 'odd "name"': 31001 },
        started_at: at,
        finished_at: null,
        hostname: "h1",
        failure_count: 2,
        previous_host: null,
      });
      const events = await client.query(
        `SELECT previous_state::text, state::text, reason, message, mesos_task_id, at
         FROM task_events WHERE task_id = $1 ORDER BY id`,
        [t.taskId],
      );
      expect(events.rows).toEqual([
        {
          previous_state: "LAUNCHED",
          state: "STARTING",
          reason: null,
          message: null,
          mesos_task_id: "web-0-1",
          at,
        },
        {
          previous_state: "STARTING",
          state: "RUNNING",
          reason: "REASON_X",
          message: tricky,
          mesos_task_id: "web-0-1",
          at,
        },
      ]);
      // The row moved on: the same change misses and writes nothing.
      const again = await gateway.transaction((tx) => tx.taskChanges.apply([running(t)]));
      expect(again.missed).toHaveLength(1);
      const count = await client.query(
        "SELECT count(*)::int AS n FROM task_events WHERE task_id = $1",
        [t.taskId],
      );
      expect(count.rows[0].n).toBe(2);
    } finally {
      await client.end();
    }
  });

  it("tells apart, in one batch, the changes it applied from the ones it missed", async () => {
    const tasks = await launchedTasks(4);
    // Instances 1 and 3 moved on meanwhile: their changes expect a state they left.
    const change = (t: (typeof tasks)[number]) => ({ ...running(t), instanceId: t.instanceId });
    await gateway.transaction((tx) => tx.taskChanges.apply([change(tasks[1]!), change(tasks[3]!)]));
    const batch = tasks.map(change);
    const outcome = await gateway.transaction((tx) => tx.taskChanges.apply(batch));
    expect(outcome.applied.map((c) => c.instanceId)).toEqual([0, 2]);
    expect(outcome.missed.map((c) => c.instanceId)).toEqual([1, 3]);
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      // Each instance has its own two events, written with its own task, job and instance.
      const events = await client.query(
        `SELECT e.instance_id, e.job_id::text, e.state::text, t.instance_id AS row_instance
         FROM task_events e JOIN tasks t ON t.id = e.task_id ORDER BY e.id`,
      );
      expect(events.rows).toEqual(
        [1, 1, 3, 3, 0, 0, 2, 2].map((instance, i) => ({
          instance_id: instance,
          job_id: tasks[0]!.jobId,
          state: i % 2 === 0 ? "STARTING" : "RUNNING",
          row_instance: instance,
        })),
      );
    } finally {
      await client.end();
    }
  });

  it("has PostgreSQL find a batch's rows by primary key for the rest of its transaction only", async () => {
    const tasks = await launchedTasks(2);
    const db = createDb(inject("databaseUrl"), { max: 1 });
    try {
      const price = async (client: { $queryRaw: typeof db.$queryRaw }) =>
        (
          await client.$queryRaw<{ v: string }[]>`SELECT current_setting('random_page_cost') AS v`
        )[0]?.v;
      const before = await price(db);
      const within = await db.$transaction(async (tx) => {
        const outcome = await taskChangesRepository(tx).apply(
          tasks.map((t) => ({ ...running(t), instanceId: t.instanceId })),
        );
        expect(outcome.applied).toHaveLength(2);
        return price(tx);
      });
      expect(within).toBe("1.1");
      // The one connection again, after the transaction: its own price is back.
      expect(await price(db)).toBe(before);
    } finally {
      await db.$disconnect();
    }
  });
});
