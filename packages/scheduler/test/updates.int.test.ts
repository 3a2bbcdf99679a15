/**
 * The update workflow end to end on mesos-sim (issue 17 §1): rolling batches
 * with never more than the batch size down, a bad version rolled back,
 * pause and resume, and health-checked instances counted done only when
 * HEALTHY.
 */
import { terminationStatus } from "@peloton/engine";
import type { MesosSim } from "@peloton/mesos";
import {
  agent,
  leafPool,
  ROOMY,
  startSystem,
  submit,
} from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createUpdate } from "../src/jobmgr/updates/create-update.ts";
import { actOnUpdate } from "../src/jobmgr/updates/update-actions.ts";
import {
  instanceVersions,
  serviceConfig,
  startUpdate,
  UPDATE_DEFAULTS,
  updateOf,
} from "./support/updates.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const AGENTS = [agent("u-1.test"), agent("u-2.test")];
const TESTER = { login: "tester", via: "test" };

async function runningService(
  instances: number,
  command = "sleep 600",
): Promise<{ jobId: string; sim: MesosSim }> {
  const { sim } = await startSystem(AGENTS);
  const pool = await leafPool(gateway, "web", ROOMY);
  const jobId = await submit(gateway, pool, serviceConfig(instances, command));
  await expect
    .poll(async () => (await instanceVersions(jobId)).filter((r) => r.state === "RUNNING").length, {
      timeout: 30_000,
      interval: 100,
    })
    .toBe(instances);
  return { jobId, sim };
}

/** The job's instances each run exactly once on the master (no duplicate, none missing). */
function liveRunsPerInstance(sim: MesosSim, jobId: string): Map<number, number> {
  const per = new Map<number, number>();
  for (const t of sim.tasks()) {
    if (!t.taskId.startsWith(jobId) || t.state !== "TASK_RUNNING") continue;
    const instance = Number(t.taskId.slice(jobId.length + 1).split("-")[0]);
    per.set(instance, (per.get(instance) ?? 0) + 1);
  }
  return per;
}

describe("updates on mesos-sim", () => {
  it("10 instances in batches of 2: all on the new version, never more than 2 down", async () => {
    const { jobId, sim } = await runningService(10);
    const id = await startUpdate(gateway, jobId, serviceConfig(10, "sleep 601"), { batchSize: 2 });

    let maxDown = 0;
    let samples = 0;
    for (;;) {
      const rows = await instanceVersions(jobId);
      maxDown = Math.max(maxDown, rows.filter((r) => r.state !== "RUNNING").length);
      samples++;
      const u = await updateOf(gateway, id);
      if (u.state === "SUCCEEDED") break;
      expect(["INITIALIZED", "ROLLING_FORWARD"]).toContain(u.state);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(samples).toBeGreaterThan(10);
    expect(maxDown).toBeLessThanOrEqual(2);
    expect(maxDown).toBeGreaterThan(0);
    const rows = await instanceVersions(jobId);
    expect(rows.map((r) => [r.config_version, r.desired_config_version, r.state])).toEqual(
      Array.from({ length: 10 }, () => [2, 2, "RUNNING"]),
    );
    const u = await updateOf(gateway, id);
    expect(u.instancesDone).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...liveRunsPerInstance(sim, jobId).values()]).toEqual(Array(10).fill(1));
    // The update's restarts are not failures.
    const failures = await gateway.taskReads.list({ jobId, limit: 20 });
    expect(failures.items.map((t) => t.failureCount)).toEqual(Array(10).fill(0));
    // Each replaced run ended for the update (Peloton's KILLED_FOR_UPDATE), which it names.
    const [run1] = (await gateway.taskHistory.runs(jobId, 3)).filter((r) => r.runId === 1);
    expect(run1).toMatchObject({ state: "KILLED", reason: "JOB_UPDATE" });
    expect(run1?.message).toMatch(
      new RegExp(`^replaced by a run with the new config \\(update ${id.slice(0, 8)} `),
    );
    expect(terminationStatus({ ...run1!, goalState: "RUNNING" })).toBe("KILLED_FOR_UPDATE");
    const history = await gateway.updates.events({ updateId: id, limit: 100 });
    expect(history.items.at(0)?.state).toBe("SUCCEEDED");
    expect(history.items.at(-1)?.message).toMatch(/^update from config version 1 to 2/);
  }, 120_000);

  it("a bad version (exit 1) with rollbackOnFailure ends ROLLED_BACK, every instance on the old version", async () => {
    const { jobId } = await runningService(4);
    const id = await startUpdate(gateway, jobId, serviceConfig(4, "exit 1"), {
      batchSize: 2,
      rollbackOnFailure: true,
      maxInstanceAttempts: 1,
      maxFailureInstances: 1,
    });
    await expect
      .poll(async () => (await updateOf(gateway, id)).state, { timeout: 60_000, interval: 200 })
      .toBe("ROLLED_BACK");
    await expect
      .poll(
        async () =>
          (await instanceVersions(jobId)).map((r) => [
            r.config_version,
            r.desired_config_version,
            r.state,
          ]),
        { timeout: 30_000, interval: 200 },
      )
      .toEqual(Array.from({ length: 4 }, () => [1, 1, "RUNNING"]));
    const job = await gateway.jobs.get(jobId);
    expect(job?.configVersion).toBe(1);
    const states = (await gateway.updates.events({ updateId: id, limit: 100 })).items.map(
      (e) => e.state,
    );
    expect(states).toContain("ROLLING_BACKWARD");
  }, 120_000);

  it("pause holds the update; resume finishes it", async () => {
    const { jobId } = await runningService(6);
    const id = await startUpdate(gateway, jobId, serviceConfig(6, "sleep 602"), { batchSize: 1 });
    await expect
      .poll(async () => (await updateOf(gateway, id)).instancesDone.length, {
        timeout: 30_000,
        interval: 50,
      })
      .toBeGreaterThanOrEqual(1);
    const paused = await actOnUpdate(gateway, id, "pause", TESTER);
    expect(paused.ok && paused.update.state).toBe("PAUSED");
    const moved = async () =>
      (await instanceVersions(jobId)).filter((r) => r.desired_config_version === 2).length;
    const atPause = await moved();
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await moved()).toBe(atPause);
    expect((await updateOf(gateway, id)).state).toBe("PAUSED");
    expect(atPause).toBeLessThan(6);

    const resumed = await actOnUpdate(gateway, id, "resume", TESTER);
    expect(resumed.ok && resumed.update.state).toBe("ROLLING_FORWARD");
    await expect
      .poll(async () => (await updateOf(gateway, id)).state, { timeout: 60_000, interval: 200 })
      .toBe("SUCCEEDED");
    expect((await instanceVersions(jobId)).every((r) => r.config_version === 2)).toBe(true);
  }, 120_000);

  it("a health-checked instance counts done only once HEALTHY", async () => {
    const { jobId } = await runningService(3);
    const healthy = serviceConfig(3, "sleep 2; touch ok; sleep 600", {
      healthCheck: {
        enabled: true,
        type: "COMMAND",
        initialIntervalSecs: 1,
        intervalSecs: 1,
        timeoutSecs: 2,
        maxConsecutiveFailures: 10,
        commandCheck: { command: "test -f ok" },
      },
    });
    const id = await startUpdate(gateway, jobId, healthy, { batchSize: 1 });
    const seenDone = new Set<number>();
    for (;;) {
      const [u, rows] = await Promise.all([updateOf(gateway, id), instanceVersions(jobId)]);
      for (const i of u.instancesDone) {
        if (seenDone.has(i)) continue;
        seenDone.add(i);
        // The row can only be newer than the update's read: still HEALTHY on the new version.
        expect(rows[i]).toMatchObject({ config_version: 2, health: "HEALTHY", state: "RUNNING" });
      }
      if (u.state === "SUCCEEDED") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seenDone.size).toBe(3);
  }, 120_000);

  it("grows and shrinks in one update: added instances run the new version, removed ones stop", async () => {
    const { jobId, sim } = await runningService(4);
    const grow = await startUpdate(gateway, jobId, serviceConfig(6, "sleep 603"), { batchSize: 2 });
    await expect
      .poll(async () => (await updateOf(gateway, grow)).state, { timeout: 60_000, interval: 200 })
      .toBe("SUCCEEDED");
    expect((await gateway.jobs.get(jobId))?.instanceCount).toBe(6);
    expect((await instanceVersions(jobId)).map((r) => [r.config_version, r.state])).toEqual(
      Array(6).fill([2, "RUNNING"]),
    );

    const shrink = await startUpdate(gateway, jobId, serviceConfig(3, "sleep 603"), {
      batchSize: 2,
    });
    await expect
      .poll(async () => (await updateOf(gateway, shrink)).state, { timeout: 60_000, interval: 200 })
      .toBe("SUCCEEDED");
    expect((await gateway.jobs.get(jobId))?.instanceCount).toBe(3);
    const rows = await instanceVersions(jobId);
    expect(rows.slice(0, 3).map((r) => [r.config_version, r.state])).toEqual(
      Array(3).fill([3, "RUNNING"]),
    );
    expect(rows.slice(3).map((r) => r.state)).toEqual(["DELETED", "DELETED", "DELETED"]);
    // Unchanged kept instances were moved without a restart: still one run each on the master.
    expect([...liveRunsPerInstance(sim, jobId).entries()].sort()).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
  }, 120_000);

  it("a rolling restart (kind RESTART) replaces every run in batches, not as failures", async () => {
    const { jobId } = await runningService(4);
    const result = await createUpdate(gateway, {
      jobId,
      kind: "RESTART",
      options: { ...UPDATE_DEFAULTS, batchSize: 2 },
      acting: TESTER,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    await expect
      .poll(async () => (await updateOf(gateway, result.update.id)).state, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe("SUCCEEDED");
    const tasks = await gateway.taskReads.list({ jobId, limit: 10 });
    expect(tasks.items.map((t) => [t.runId, t.state, t.failureCount])).toEqual(
      Array(4).fill([2, "RUNNING", 0]),
    );
    // A restart, not a new config: the replaced runs end as restarted.
    const [run1] = (await gateway.taskHistory.runs(jobId, 0)).filter((r) => r.runId === 1);
    expect(run1).toMatchObject({ state: "KILLED", reason: "RESTART_REQUESTED" });
  }, 120_000);
});
