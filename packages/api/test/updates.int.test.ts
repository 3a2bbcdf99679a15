/**
 * The updates API against the scratch database (no leader running): an
 * update's create, reads and actions, config versions, rolling restarts,
 * and every bad input refused with its field named and nothing changed.
 */
import { testContext } from "@peloton/test-support/api/context.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { batchYaml } from "./support/jobs.ts";

const ctx = testContext();
const { gateway } = ctx;
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

function serviceYaml(opts: { instances?: number; command?: string; priority?: number } = {}) {
  return `name: web
type: SERVICE
instanceCount: ${opts.instances ?? 4}
sla:
  priority: ${opts.priority ?? 1}
defaultConfig:
  resource:
    cpuLimit: 0.1
    memLimitMb: 32
  command:
    value: '${opts.command ?? "sleep 600"}'
`;
}

async function service(instances = 4): Promise<string> {
  const pool = await leafPool(gateway, "web");
  return (await caller.jobs.create({ pool, yaml: serviceYaml({ instances }) })).id;
}

/** The tRPC error `fn` throws: its code, first issue's field and code, and message. */
async function refusal(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof TRPCError)) throw err;
    const issues = (err.cause as { issues?: { field: string | null; code: string }[] } | undefined)
      ?.issues;
    return {
      code: err.code,
      field: issues?.[0]?.field,
      issue: issues?.[0]?.code,
      message: err.message,
    };
  }
  throw new Error("expected a refusal");
}

async function counts() {
  const [r] = await directSql<{ updates: number; versions: number; events: number; moved: number }>(
    `SELECT (SELECT count(*) FROM job_updates)::int AS updates,
            (SELECT count(*) FROM job_config_versions)::int AS versions,
            (SELECT count(*) FROM job_update_events)::int AS events,
            (SELECT count(*) FROM tasks WHERE desired_config_version <> 1)::int AS moved`,
  );
  return r!;
}

describe("updates.create and reads", () => {
  it("writes version 2 and an INITIALIZED update; reads show it, its history and the versions", async () => {
    const jobId = await service();
    const yaml = serviceYaml({ command: "sleep 601" });
    const created = await caller.updates.create({ jobId, yaml, options: { batchSize: 2 } });
    expect(created).toMatchObject({ jobId, fromVersion: 1, toVersion: 2, state: "INITIALIZED" });

    const view = await caller.updates.get({ id: created.updateId });
    expect(view).toMatchObject({
      kind: "UPDATE",
      jobName: "web",
      instancesTotal: 4,
      numTasksDone: 0,
      numTasksRemaining: 4,
      numTasksFailed: 0,
      actor: ctx.actor?.login,
    });
    expect(view.batches.map((b) => b.instances)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect((await caller.updates.list({ jobId })).items.map((u) => u.id)).toEqual([
      created.updateId,
    ]);
    const events = await caller.updates.events({ id: created.updateId });
    expect(events.items[0]?.message).toMatch(
      /^update from config version 1 to 2: 4 instances to restart/,
    );

    expect((await caller.jobs.configVersions({ id: jobId })).map((v) => v.version)).toEqual([2, 1]);
    expect((await caller.jobs.configVersion({ id: jobId, version: 2 })).yaml).toBe(yaml);
    expect((await caller.jobs.get({ id: jobId })).configVersion).toBe(2);
    const rows = await caller.tasks.list({ jobId });
    expect(rows.items.map((t) => [t.configVersion, t.desiredConfigVersion])).toEqual(
      Array(4).fill([1, 1]),
    );
  });

  it("moves instances whose task config is unchanged at once, without a restart", async () => {
    const jobId = await service();
    const created = await caller.updates.create({
      jobId,
      yaml: serviceYaml({ priority: 3 }),
      options: { batchSize: 1 },
    });
    const rows = await caller.tasks.list({ jobId });
    expect(rows.items.map((t) => [t.configVersion, t.desiredConfigVersion, t.runId])).toEqual(
      Array(4).fill([2, 2, 1]),
    );
    expect((await caller.updates.get({ id: created.updateId })).instancesTotal).toBe(0);
  });

  it("pause, resume, abort; the audit log has each", async () => {
    const jobId = await service();
    const { updateId: id } = await caller.updates.create({
      jobId,
      yaml: serviceYaml({ command: "x" }),
    });
    expect((await caller.updates.pause({ id })).state).toBe("PAUSED");
    expect((await caller.updates.resume({ id })).state).toBe("ROLLING_FORWARD");
    expect((await caller.updates.abort({ id })).state).toBe("ABORTED");
    const actions = await directSql<{ action: string }>(
      "SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id",
      [id],
    );
    expect(actions.map((a) => a.action)).toEqual([
      "update.create",
      "update.pause",
      "update.resume",
      "update.abort",
    ]);
  });

  it("jobs.restart with a batch size is a rolling restart (an update of kind RESTART)", async () => {
    const jobId = await service(3);
    const answer = await caller.jobs.restart({ id: jobId, batchSize: 1 });
    expect(answer.updateId).not.toBeNull();
    const view = await caller.updates.get({ id: answer.updateId! });
    expect(view).toMatchObject({
      kind: "RESTART",
      fromVersion: 1,
      toVersion: 1,
      instancesTotal: 3,
    });
    expect((await refusal(() => caller.updates.rollback({ id: view.id }))).issue).toBe(
      "update.not_rollbackable",
    );
  });
});

describe("updates.diff", () => {
  it("answers the sets create would write, writing nothing; a bad diff is refused the same way", async () => {
    const jobId = await service();
    const pool = await leafPool(gateway, "batch");
    const batch = (await caller.jobs.create({ pool, yaml: batchYaml({ name: "b" }) })).id;
    const before = await counts();
    expect(
      await caller.updates.diff({
        jobId,
        yaml: serviceYaml({ instances: 6, command: "sleep 601" }),
      }),
    ).toEqual({
      jobId,
      fromVersion: 1,
      added: [4, 5],
      updated: [0, 1, 2, 3],
      removed: [],
      unchanged: [],
    });
    expect(
      await caller.updates.diff({ jobId, yaml: serviceYaml({ instances: 3, priority: 2 }) }),
    ).toMatchObject({ added: [], updated: [], removed: [3], unchanged: [0, 1, 2] });
    expect(await counts()).toEqual(before);
    expect(
      await refusal(() =>
        caller.updates.diff({ jobId, yaml: serviceYaml({ command: "x" }), configVersion: 7 }),
      ),
    ).toMatchObject({ code: "CONFLICT", field: "configVersion", issue: "update.version_mismatch" });
    expect(
      await refusal(() => caller.updates.diff({ jobId: batch, yaml: serviceYaml() })),
    ).toMatchObject({ code: "BAD_REQUEST", field: "jobId" });
    expect(await counts()).toEqual(before);
  });
});

describe("bad input is refused with the field named, nothing changed", () => {
  it("an update of a BATCH job", async () => {
    const pool = await leafPool(gateway, "batch");
    const { id: jobId } = await caller.jobs.create({ pool, yaml: batchYaml() });
    const before = await counts();
    expect(
      await refusal(() => caller.updates.create({ jobId, yaml: batchYaml({ command: "echo 2" }) })),
    ).toMatchObject({ code: "BAD_REQUEST", field: "jobId", issue: "update.batch_job" });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["batchSize 0 with no batchPercentage", { batchSize: 0 }, "batchSize"],
    [
      "maxFailureInstances above the instance count",
      { maxFailureInstances: 5 },
      "maxFailureInstances",
    ],
  ])("%s", async (_name, options, field) => {
    const jobId = await service(4);
    const before = await counts();
    const r = await refusal(() =>
      caller.updates.create({ jobId, yaml: serviceYaml({ command: "x" }), options }),
    );
    expect(r.code).toBe("BAD_REQUEST");
    expect(`${r.field} ${r.message}`).toContain(field);
    expect(await counts()).toEqual(before);
  });

  it("a config version that is not the job's", async () => {
    const jobId = await service();
    const before = await counts();
    expect(
      await refusal(() =>
        caller.updates.create({ jobId, yaml: serviceYaml({ command: "x" }), configVersion: 7 }),
      ),
    ).toMatchObject({ code: "CONFLICT", field: "configVersion", issue: "update.version_mismatch" });
    expect(await counts()).toEqual(before);
  });

  it("a second active update without override; with override the first is ABORTED", async () => {
    const jobId = await service();
    const first = await caller.updates.create({ jobId, yaml: serviceYaml({ command: "a" }) });
    const before = await counts();
    expect(
      await refusal(() => caller.updates.create({ jobId, yaml: serviceYaml({ command: "b" }) })),
    ).toMatchObject({ code: "CONFLICT", field: "override", issue: "update.active" });
    expect(await counts()).toEqual(before);

    const second = await caller.updates.create({
      jobId,
      yaml: serviceYaml({ command: "b" }),
      override: true,
    });
    expect(second.toVersion).toBe(3);
    expect(second.overriddenUpdateId).toBe(first.updateId);
    expect(first.overriddenUpdateId).toBeNull();
    expect((await caller.updates.get({ id: first.updateId })).state).toBe("ABORTED");
  });

  it("a pause of a finished update", async () => {
    const jobId = await service();
    const { updateId: id } = await caller.updates.create({
      jobId,
      yaml: serviceYaml({ command: "a" }),
    });
    await caller.updates.abort({ id });
    const before = await counts();
    expect(await refusal(() => caller.updates.pause({ id }))).toMatchObject({
      code: "PRECONDITION_FAILED",
      field: "id",
      issue: "update.finished",
    });
    expect(await counts()).toEqual(before);
  });

  it("an unknown update", async () => {
    expect(
      await refusal(() => caller.updates.pause({ id: "00000000-0000-4000-8000-000000000001" })),
    ).toMatchObject({ code: "NOT_FOUND", field: "id" });
  });
});
