/**
 * jobs.create / get / list and tasks.list / get / events against the scratch
 * database: Peloton YAML in, task rows PENDING with their first event out;
 * bad files refused with the field (and line) named and nothing stored.
 */

import { testContext } from "@peloton/test-support/api/context.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import type { ConfigApiIssue } from "../src/routers/jobs.handler.ts";
import { batchYaml } from "./support/jobs.ts";

const ctx = testContext();
const { gateway } = ctx;
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

/** The issues of the error `fn` throws (it must throw a tRPC error). */
async function issuesOf(
  fn: () => Promise<unknown>,
): Promise<{ code: string; issues: ConfigApiIssue[] }> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof TRPCError)) throw err;
    const cause = err.cause as { issues?: ConfigApiIssue[] } | undefined;
    return { code: err.code, issues: cause?.issues ?? [] };
  }
  throw new Error("expected an error");
}

async function rowCounts() {
  const [r] = await directSql<{ jobs: number; tasks: number; events: number }>(
    `SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM tasks)::int AS tasks,
            (SELECT count(*) FROM task_events)::int AS events`,
  );
  return r!;
}

describe("jobs.create", () => {
  it("stores the job as submitted and parsed, one PENDING task per instance with its first event, counts and audit", async () => {
    const pool = await leafPool(gateway);
    const yaml = batchYaml({ instances: 3 });
    const created = await caller.jobs.create({ pool, yaml });
    expect(created).toMatchObject({ instances: 3, pool: "/batch" });

    const job = await caller.jobs.get({ id: created.id });
    expect(job).toMatchObject({
      name: "hello",
      type: "BATCH",
      poolPath: "/batch",
      owner: "alice",
      priority: 5,
      state: "PENDING",
      goalState: "SUCCEEDED",
      instanceCount: 3,
      taskStats: { PENDING: 3 },
      configYaml: yaml,
    });
    expect(
      (job.config as { defaultConfig: { resource: { cpuLimit: number } } }).defaultConfig.resource
        .cpuLimit,
    ).toBe(0.5);

    const tasks = await caller.tasks.list({ jobId: created.id });
    expect(tasks.items.map((t) => [t.instanceId, t.state, t.runId, t.cpu, t.name])).toEqual([
      [0, "PENDING", 1, 0.5, "hello"],
      [1, "PENDING", 1, 0.5, "hello"],
      [2, "PENDING", 1, 0.5, "hello"],
    ]);
    const events = await caller.tasks.events({ jobId: created.id, instance: 1 });
    expect(events.items).toEqual([
      expect.objectContaining({
        runId: 1,
        previousState: null,
        state: "PENDING",
        source: "JOB_MANAGER",
        reason: "CREATED",
      }),
    ]);
    const [audit] = await directSql<{ actor: string; action: string }>(
      "SELECT actor, action FROM audit_log",
    );
    expect(audit).toEqual({ actor: "alice", action: "job.create" });
  });

  it("takes the pool from respoolId when the request names none", async () => {
    await leafPool(gateway, "fromfile");
    const created = await caller.jobs.create({
      yaml: `${batchYaml()}respoolid:\n  value: /fromfile\n`,
    });
    expect(created.pool).toBe("/fromfile");
  });

  it("refuses an unknown field with its name and line, and stores nothing", async () => {
    const pool = await leafPool(gateway);
    const yaml = batchYaml().replace("  priority: 5", "  priority: 5\n  colour: blue");
    const { code, issues } = await issuesOf(() => caller.jobs.create({ pool, yaml }));
    expect(code).toBe("BAD_REQUEST");
    expect(issues).toEqual([
      expect.objectContaining({ field: "sla.colour", message: 'unknown field "colour"', line: 6 }),
    ]);
    expect(await rowCounts()).toEqual({ jobs: 0, tasks: 0, events: 0 });
  });

  it("refuses a negative cpuLimit with the field (in the file's spelling) and line, and stores nothing", async () => {
    const pool = await leafPool(gateway);
    const { code, issues } = await issuesOf(() =>
      caller.jobs.create({ pool, yaml: batchYaml({ cpu: -1 }) }),
    );
    expect(code).toBe("BAD_REQUEST");
    expect(issues).toEqual([
      expect.objectContaining({
        field: "defaultconfig.resource.cpulimit",
        code: "NEGATIVE_RESOURCE",
        line: 9,
      }),
    ]);
    expect(issues[0]!.message).toMatch(/-1/);
    expect(await rowCounts()).toEqual({ jobs: 0, tasks: 0, events: 0 });
  });

  it("refuses a task larger than every host, with the numbers, and stores nothing", async () => {
    const pool = await leafPool(gateway);
    for (const [hostname, cpu] of [
      ["h1", 4],
      ["h2", 8],
    ] as const)
      await gateway.hosts.upsert({
        hostname,
        agentId: `agent-${hostname}`,
        attributes: {},
        cpu,
        memMb: 8192,
        diskMb: 100_000,
        gpu: 0,
        ports: [],
        state: "UP",
      });
    const { code, issues } = await issuesOf(() =>
      caller.jobs.create({ pool, yaml: batchYaml({ instances: 2, cpu: 12 }) }),
    );
    expect(code).toBe("BAD_REQUEST");
    expect(issues).toEqual([
      {
        code: "CAN_NEVER_FIT",
        field: "defaultconfig.resource",
        // The resource mapping's first line: cpulimit.
        line: 9,
        column: 5,
        message:
          "instance 0 can never run in pool /batch: a task needs 12 cpu cores, and the largest host (of 2) has 8 cpu cores",
      },
    ]);
    expect(await rowCounts()).toEqual({ jobs: 0, tasks: 0, events: 0 });
  });

  it("refuses a pool that does not exist, or has children", async () => {
    await leafPool(gateway);
    expect(
      (await issuesOf(() => caller.jobs.create({ pool: "/nope", yaml: batchYaml() }))).code,
    ).toBe("NOT_FOUND");
    const refused = await issuesOf(() => caller.jobs.create({ pool: "/", yaml: batchYaml() }));
    expect(refused.issues[0]).toMatchObject({ field: "pool", code: "POOL_NOT_LEAF" });
    expect(await rowCounts()).toEqual({ jobs: 0, tasks: 0, events: 0 });
  });
});

describe("jobs.list", () => {
  it("filters by state, type, pool and name, newest first, by keyset", async () => {
    const a = await leafPool(gateway, "a");
    const b = await leafPool(gateway, "b");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await caller.jobs.create({ pool: i % 2 ? b : a, yaml: batchYaml({ name: `job-${i}` }) }))
          .id,
      );

    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await caller.jobs.list({ limit: 2, cursor });
      seen.push(...page.items.map((j) => j.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["job-4", "job-3", "job-2", "job-1", "job-0"]);

    expect((await caller.jobs.list({ pool: b })).items.map((j) => j.name)).toEqual([
      "job-3",
      "job-1",
    ]);
    expect((await caller.jobs.list({ text: "B-2" })).items.map((j) => j.name)).toEqual(["job-2"]);
    expect((await caller.jobs.list({ types: ["SERVICE"] })).items).toEqual([]);
    expect(
      (
        await caller.jobs.list({ states: ["PENDING"], sort: "name", order: "asc", limit: 3 })
      ).items.map((j) => j.name),
    ).toEqual(["job-0", "job-1", "job-2"]);
  });

  it("takes a job id, or its first characters as the lists show them, in the same filter as the name", async () => {
    const a = await leafPool(gateway, "a");
    const one = await caller.jobs.create({ pool: a, yaml: batchYaml({ name: "alpha" }) });
    await caller.jobs.create({ pool: a, yaml: batchYaml({ name: "beta" }) });
    const byText = async (text: string) =>
      (await caller.jobs.list({ text })).items.map((j) => j.name);
    expect(await byText(one.id)).toEqual(["alpha"]);
    expect(await byText(one.id.slice(0, 8).toUpperCase())).toEqual(["alpha"]);
    // Too short to be read as an id: only names match.
    expect(await byText(one.id.slice(0, 3))).toEqual(
      "alpha".includes(one.id.slice(0, 3)) ? ["alpha"] : [],
    );
    expect(await byText("lph")).toEqual(["alpha"]);
  });
});

describe("tasks.list", () => {
  it("pages a job's instances in every sort order without gaps or repeats", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 25 }) });
    // Give some tasks a host and a start time, leave the others null.
    await directSql(
      `UPDATE tasks SET hostname = 'h' || (instance_id % 3), started_at = now() - (instance_id || ' s')::interval
       WHERE job_id = $1 AND instance_id % 2 = 0`,
      [id],
    );
    for (const sort of ["instance", "state", "host", "startedAt"] as const) {
      for (const order of ["asc", "desc"] as const) {
        const seen: number[] = [];
        let cursor: string | null | undefined;
        do {
          const page = await caller.tasks.list({ jobId: id, sort, order, limit: 4, cursor });
          seen.push(...page.items.map((t) => t.instanceId));
          cursor = page.nextCursor;
        } while (cursor);
        expect(
          [...seen].sort((x, y) => x - y),
          `${sort} ${order}`,
        ).toEqual(Array.from({ length: 25 }, (_, i) => i));
      }
    }
    const hostH1 = await caller.tasks.list({ jobId: id, host: "h1" });
    expect(hostH1.items.map((t) => t.instanceId)).toEqual([4, 10, 16, 22]);
    const range = await caller.tasks.list({
      jobId: id,
      instanceFrom: 3,
      instanceTo: 5,
      order: "desc",
    });
    expect(range.items.map((t) => t.instanceId)).toEqual([5, 4, 3]);
  });

  it("tasks.runtimes answers list's pages with each instance's runtime fields, health as list shows it", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 7 }) });
    await directSql(
      `UPDATE tasks SET hostname = 'h' || (instance_id % 2), state = 'RUNNING', started_at = now(),
              mesos_task_id = job_id || '-' || instance_id || '-1', ports = '{"http": 31000}'
       WHERE job_id = $1 AND instance_id < 4`,
      [id],
    );
    for (const input of [
      { jobId: id, sort: "host" as const, order: "desc" as const, limit: 3 },
      { jobId: id, states: ["RUNNING" as const], instanceFrom: 1 },
    ]) {
      const list = await caller.tasks.list(input);
      const runtimes = await caller.tasks.runtimes(input);
      expect(runtimes.nextCursor).toEqual(list.nextCursor);
      expect(runtimes.items).toEqual(
        list.items.map((t) => ({
          jobId: t.jobId,
          instanceId: t.instanceId,
          clusterTaskId: t.clusterTaskId,
          state: t.state,
          goalState: t.goalState,
          hostname: t.hostname,
          ports: t.ports,
          reason: t.reason,
          message: t.message,
          failureCount: t.failureCount,
          createdAt: t.createdAt,
          updatedAt: t.updatedAt,
          startedAt: t.startedAt,
          finishedAt: t.finishedAt,
          health: t.health,
        })),
      );
    }
    // The job's config comes with each page, as jobs.get answers it.
    const { config } = await caller.jobs.get({ id });
    expect((await caller.tasks.runtimes({ jobId: id, limit: 2 })).jobConfig).toEqual(config);
    // A run without health of its own shows its initial one (DISABLED), not null.
    expect((await caller.tasks.runtimes({ jobId: id, limit: 1 })).items[0]?.health).toBe(
      "DISABLED",
    );
    await expect(
      caller.tasks.runtimes({ jobId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("says NOT_FOUND for an unknown job or instance", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 1 }) });
    await expect(caller.tasks.get({ jobId: id, instance: 7 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.tasks.list({ jobId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("job and task actions write intent", () => {
  async function goals(jobId: string) {
    return (
      await directSql<{
        instance_id: number;
        goal_state: string;
        desired_run: number;
        state: string;
      }>(
        "SELECT instance_id, goal_state::text, desired_run, state::text FROM tasks WHERE job_id = $1 ORDER BY instance_id",
        [jobId],
      )
    ).map((r) => `${r.instance_id}:${r.goal_state}:${r.desired_run}:${r.state}`);
  }

  it("queues no more than sla.maximumRunningInstances at submit; instances a scale adds wait too", async () => {
    const pool = await leafPool(gateway);
    const yaml = batchYaml({ instances: 3 }).replace(
      "  preemptible: true\n",
      "  preemptible: true\n  maximumRunningInstances: 2\n",
    );
    const { id } = await caller.jobs.create({ pool, yaml });
    expect(await goals(id)).toEqual([
      "0:SUCCEEDED:1:PENDING",
      "1:SUCCEEDED:1:PENDING",
      "2:SUCCEEDED:1:INITIALIZED",
    ]);
    await caller.jobs.scale({ id, version: 1, instanceCount: 4 });
    expect((await goals(id))[3]).toBe("3:SUCCEEDED:1:INITIALIZED");
    const reasons = await directSql<{ instance_id: number; reason: string; message: string }>(
      "SELECT instance_id, reason, message FROM task_events WHERE job_id = $1 ORDER BY instance_id",
      [id],
    );
    expect(reasons.map((r) => `${r.instance_id} ${r.reason}`)).toEqual([
      "0 CREATED",
      "1 CREATED",
      "2 MAXIMUM_RUNNING_INSTANCES",
      "3 SCALED_UP",
    ]);
    expect(reasons[3]!.message).toMatch(/the job runs its maximum of 2 instances at once/);
    const [job] = (await caller.jobs.list({ limit: 5 })).items;
    expect(job!.taskStats).toEqual({ PENDING: 2, INITIALIZED: 2 });
  });

  it("task stop over every instance sets the job's goal to KILLED, as Peloton's StopTasks", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 3 }) });
    // A subset leaves the job's goal alone.
    const some = await caller.tasks.stop({ jobId: id, instances: [{ from: 0, to: 1 }] });
    expect(some).toMatchObject({ goalState: "SUCCEEDED", instances: [0, 1] });
    // Ranges that together cover the job stop the job.
    const rest = await caller.tasks.stop({
      jobId: id,
      instances: [
        { from: 2, to: 2 },
        { from: 0, to: 1 },
      ],
    });
    expect(rest).toMatchObject({ goalState: "KILLED" });
    expect((await caller.jobs.get({ id })).goalState).toBe("KILLED");
    // No instances named: every instance, the job too.
    const other = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 2 }) });
    expect(await caller.tasks.stop({ jobId: other.id })).toMatchObject({ goalState: "KILLED" });
    expect(await goals(other.id)).toEqual(["0:KILLED:1:PENDING", "1:KILLED:1:PENDING"]);
  });

  it("stop, start and restart set goals and desired runs, bump the version, and are audited", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 4 }) });
    const stopped = await caller.tasks.stop({ jobId: id, instances: [{ from: 1, to: 2 }] });
    expect(stopped).toMatchObject({ version: 2, goalState: "SUCCEEDED", instances: [1, 2] });
    expect(await goals(id)).toEqual([
      "0:SUCCEEDED:1:PENDING",
      "1:KILLED:1:PENDING",
      "2:KILLED:1:PENDING",
      "3:SUCCEEDED:1:PENDING",
    ]);
    const job = await caller.jobs.stop({ id, version: 2 });
    expect(job).toMatchObject({ version: 3, goalState: "KILLED", instances: [0, 3] });
    // A run that ended gets a new desired run on start; one that never ran is only given its goal back.
    await directSql("UPDATE tasks SET state = 'KILLED' WHERE job_id = $1 AND instance_id = 0", [
      id,
    ]);
    await caller.jobs.start({ id });
    expect(await goals(id)).toEqual([
      "0:SUCCEEDED:2:KILLED",
      "1:SUCCEEDED:1:PENDING",
      "2:SUCCEEDED:1:PENDING",
      "3:SUCCEEDED:1:PENDING",
    ]);
    await caller.tasks.restart({ jobId: id, instances: [{ from: 3, to: 3 }] });
    expect((await goals(id))[3]).toBe("3:SUCCEEDED:2:PENDING");
    const actions = await directSql<{ action: string }>("SELECT action FROM audit_log ORDER BY id");
    expect(actions.map((a) => a.action)).toEqual([
      "job.create",
      "job.stop",
      "job.stop",
      "job.start",
      "job.restart",
    ]);
  });

  it("refuses a stale version, unknown instances, and scaling a daemon, changing nothing", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 2 }) });
    expect((await issuesOf(() => caller.jobs.stop({ id, version: 7 }))).code).toBe("CONFLICT");
    const missing = await issuesOf(() =>
      caller.tasks.stop({ jobId: id, instances: [{ from: 1, to: 3 }] }),
    );
    expect(missing.issues[0]).toMatchObject({ field: "instances", code: "NO_SUCH_INSTANCES" });
    expect(missing.issues[0]!.message).toContain("no instance 2, 3");
    expect(await goals(id)).toEqual(["0:SUCCEEDED:1:PENDING", "1:SUCCEEDED:1:PENDING"]);
    expect((await caller.jobs.get({ id })).version).toBe(1);
  });

  it("scales up with new PENDING instances and down by deleting the highest ones", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 2 }) });
    await caller.jobs.scale({ id, instanceCount: 4 });
    expect(await goals(id)).toEqual([
      "0:SUCCEEDED:1:PENDING",
      "1:SUCCEEDED:1:PENDING",
      "2:SUCCEEDED:1:PENDING",
      "3:SUCCEEDED:1:PENDING",
    ]);
    const job = await caller.jobs.get({ id });
    expect(job).toMatchObject({ instanceCount: 4, taskStats: { PENDING: 4 } });
    const added = await caller.tasks.events({ jobId: id, instance: 3 });
    expect(added.items[0]).toMatchObject({ reason: "SCALED_UP", state: "PENDING" });
    await caller.jobs.scale({ id, instanceCount: 1 });
    expect((await goals(id)).map((g) => g.split(":")[1])).toEqual([
      "SUCCEEDED",
      "DELETED",
      "DELETED",
      "DELETED",
    ]);
    // Back up: instance 1 was already DELETED and is queued again as run 2; instance 2
    // is still being deleted and gets run 2 once that ends.
    await directSql("UPDATE tasks SET state = 'DELETED' WHERE job_id = $1 AND instance_id = 1", [
      id,
    ]);
    await caller.jobs.scale({ id, instanceCount: 3 });
    expect(await goals(id)).toEqual([
      "0:SUCCEEDED:1:PENDING",
      "1:SUCCEEDED:2:PENDING",
      "2:SUCCEEDED:2:PENDING",
      "3:DELETED:1:PENDING",
    ]);
    const runs = await directSql<{ instance_id: number; run_id: number }>(
      "SELECT instance_id, run_id FROM tasks WHERE job_id = $1 ORDER BY instance_id",
      [id],
    );
    expect(runs.map((r) => r.run_id)).toEqual([1, 2, 1, 1]);
  });
});

describe("search.query", () => {
  it("finds a job by part of its name, or by its id", async () => {
    const pool = await leafPool(gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ name: "nightly-reports" }) });
    expect(await caller.search.query({ q: "reports" })).toEqual([
      expect.objectContaining({
        kind: "job",
        label: "nightly-reports",
        detail: expect.stringContaining(`job ${id.slice(0, 8)} · PENDING`),
        href: `/jobs/${id}`,
      }),
    ]);
    expect((await caller.search.query({ q: id })).map((h) => h.href)).toEqual([`/jobs/${id}`]);
  });
});
