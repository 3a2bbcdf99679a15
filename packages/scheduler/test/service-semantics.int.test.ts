/**
 * Issue 17 §4 on mesos-sim with the real runtime and PostgreSQL: SLA
 * settings enforced, operator restarts not counted as failures, crash loops
 * shown as such.
 */
import { SIM_DURATION_KEY } from "@peloton/mesos";
import {
  agent,
  eventsOf,
  leafPool,
  ROOMY,
  startSystem,
  submit,
  tasksOf,
} from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { actOnJob } from "../src/jobmgr/actions.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const longBatch = (instances: number, sla: Record<string, number>) => ({
  name: "long",
  instanceCount: instances,
  labels: [{ key: SIM_DURATION_KEY, value: "600000" }],
  sla,
  defaultConfig: {
    resource: { cpuLimit: 0.5, memLimitMb: 64 },
    command: { value: "sleep 600" },
    restartPolicy: { maxFailures: 3 },
  },
});

describe("service semantics on mesos-sim", () => {
  it("kills a run past sla.maxRunningTime with DEADLINE_TIMEOUT_EXCEEDED, not retried, not a failure", async () => {
    await startSystem([agent("a1.test")]);
    const pool = await leafPool(gateway, "batch", ROOMY);
    const jobId = await submit(gateway, pool, longBatch(1, { maxRunningTime: 1 }));
    await expect
      .poll(async () => (await tasksOf(jobId))[0]?.state, { timeout: 20_000 })
      .toBe("KILLED");
    const [task] = await tasksOf(jobId);
    // One run only: a deadline is not a failure to retry, whatever the restart policy says.
    expect(task).toMatchObject({
      run_id: 1,
      failure_count: 0,
      reason: "DEADLINE_TIMEOUT_EXCEEDED",
    });
    const [goal] = await directSql<{ goal_state: string }>(
      "SELECT goal_state::text FROM tasks WHERE job_id = $1",
      [jobId],
    );
    expect(goal!.goal_state).toBe("KILLED");
    const events = await eventsOf(jobId, 0);
    const kill = events.find((e) => e.state === "KILLING")!;
    expect(kill).toMatchObject({
      previous_state: "RUNNING",
      source: "JOB_MANAGER",
      reason: "DEADLINE_TIMEOUT_EXCEEDED",
    });
    expect(kill.message).toMatch(/sla\.maxRunningTime of 1 s/);
    expect(events.at(-1)).toMatchObject({ state: "KILLED", reason: "DEADLINE_TIMEOUT_EXCEEDED" });
  });

  it("runs no more than sla.maximumRunningInstances at once; the rest wait INITIALIZED saying why", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    const pool = await leafPool(gateway, "batch", ROOMY);
    const jobId = await submit(gateway, pool, {
      name: "capped",
      instanceCount: 5,
      sla: { maximumRunningInstances: 2 },
      labels: [{ key: SIM_DURATION_KEY, value: "300" }],
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "sleep 0.3" },
      },
    });
    // Sampled while it runs: never more than 2 scheduled (past INITIALIZED, not ended).
    const scheduled = new Set([
      "PENDING",
      "READY",
      "PLACING",
      "PLACED",
      "LAUNCHING",
      "LAUNCHED",
      "STARTING",
      "RUNNING",
      "KILLING",
    ]);
    let most = 0;
    let sawHold = false;
    await expect
      .poll(
        async () => {
          const tasks = await tasksOf(jobId);
          most = Math.max(most, tasks.filter((t) => scheduled.has(t.state)).length);
          sawHold ||= tasks.some(
            (t) =>
              t.state === "INITIALIZED" &&
              t.reason === "MAXIMUM_RUNNING_INSTANCES" &&
              t.message ===
                "waiting: the job runs its maximum of 2 instances at once (sla.maximumRunningInstances)",
          );
          return tasks.map((t) => t.state);
        },
        { timeout: 20_000, interval: 20 },
      )
      .toEqual(["SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBeGreaterThan(0);
    expect(sawHold).toBe(true);
    const held = await eventsOf(jobId, 4);
    expect(held[0]).toMatchObject({ state: "INITIALIZED", reason: "MAXIMUM_RUNNING_INSTANCES" });
  });

  it("a restart the operator asked for is no failure: the run ends 'restarted by' them, nothing counted", async () => {
    await startSystem([agent("a1.test")]);
    const pool = await leafPool(gateway, "services", ROOMY);
    const jobId = await submit(gateway, pool, {
      name: "svc",
      type: "SERVICE",
      instanceCount: 1,
      labels: [{ key: SIM_DURATION_KEY, value: "600000" }],
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "sleep 600" },
      },
    });
    await expect
      .poll(async () => (await tasksOf(jobId))[0]?.state, { timeout: 20_000 })
      .toBe("RUNNING");
    const acting = { login: "alice", via: "test" };
    expect((await actOnJob(gateway, jobId, { kind: "restart" }, acting)).ok).toBe(true);
    await expect
      .poll(async () => (await tasksOf(jobId))[0], { timeout: 20_000 })
      .toMatchObject({ state: "RUNNING", run_id: 2, failure_count: 0 });
    const firstRun = (await eventsOf(jobId, 0)).filter((e) => e.run_id === 1);
    expect(firstRun.at(-2)).toMatchObject({
      state: "KILLING",
      reason: "RESTART_REQUESTED",
      message: "stopping the current run so a new one can start (restart requested by alice)",
    });
    expect(firstRun.at(-1)).toMatchObject({
      state: "KILLED",
      reason: "RESTART_REQUESTED",
      message: "restarted by alice: replaced by a new run (not a failure)",
    });
    const [run1] = (await gateway.taskHistory.runs(jobId, 0)).filter((r) => r.runId === 1);
    expect(run1).toMatchObject({ state: "KILLED", reason: "RESTART_REQUESTED" });
    const [job] = (await gateway.jobs.list({ limit: 1 })).items;
    expect(job!.taskStats.FAILED ?? 0).toBe(0);
  });

  it("a crash-looping service shows as failing, with its last exit and the backoff it waits in", async () => {
    await startSystem([agent("a1.test")]);
    const pool = await leafPool(gateway, "services", ROOMY);
    const jobId = await submit(gateway, pool, {
      name: "crashy",
      type: "SERVICE",
      instanceCount: 1,
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "echo boom >&2; exit 3" },
      },
    });
    await expect
      .poll(async () => (await tasksOf(jobId))[0]?.reason, { timeout: 20_000, interval: 20 })
      .toBe("CRASH_LOOP_BACKOFF");
    const [task] = await tasksOf(jobId);
    expect(task!.state).toBe("INITIALIZED");
    expect(task!.failure_count).toBeGreaterThan(0);
    expect(task!.message).toMatch(
      /^failing: run \d+ FAILED \(.*3.*\); \d+ failures? so far; run \d+ starts after a [\d.]+ s backoff, at \d{4}-\d\d-\d\dT/,
    );
  });
});
