/**
 * Restarts and losses the system caused (issue 13): they never count as a
 * task's failures, the instance is replaced, and a reconciliation after a
 * scheduler restart neither kills runs that finished meanwhile nor writes
 * a warning per run.
 */
import { MesosSchedulerClient, SIM_DURATION_KEY } from "@peloton/mesos";
import { agent, leafPool, ROOMY, submit, tasksOf } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { pino } from "pino";
import { afterAll, afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { type SchedulerRuntime, startScheduler } from "../src/assembly/replica.ts";
import type { Logger } from "../src/common/logger.ts";
import { mesosHostAdapter } from "../src/hostmgr/mesos/mesos-adapter.ts";
import { log, onCleanup, testSim } from "./support/cluster.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());
afterEach(() => vi.restoreAllMocks());

/** The scheduler runtime on `masterUrl` with short periods, logging to `logger`. */
async function runtimeOn(masterUrl: string, logger: Logger = log): Promise<SchedulerRuntime> {
  const runtime = startScheduler({
    databaseUrl: inject("databaseUrl"),
    adapter: mesosHostAdapter({
      master: masterUrl,
      hostRefreshMs: 200,
      client: { backoff: { initialMs: 20, maxMs: 200 } },
    }),
    log: logger,
    election: { retryMs: 100, renewMs: 500 },
    drainPeriodMs: 200,
    scheduling: {
      admissionPeriodMs: 200,
      placement: { periodMs: 200 },
      goalState: { periodMs: 200, clusterTimeoutMs: 3_000 },
      statusSummaryMs: 300,
    },
  });
  onCleanup(() => runtime.stop());
  await runtime.ready();
  return runtime;
}

/** A logger that keeps every entry at info and above. */
function recordingLogger(): { logger: Logger; entries: Record<string, unknown>[] } {
  const entries: Record<string, unknown>[] = [];
  const logger = pino(
    { level: "info" },
    { write: (line: string) => void entries.push(JSON.parse(line)) },
  );
  return { logger, entries };
}

const service = (instances: number, labels: { key: string; value: string }[] = []) => ({
  name: "web",
  type: "SERVICE",
  instanceCount: instances,
  labels,
  defaultConfig: {
    resource: { cpuLimit: 0.5, memLimitMb: 64 },
    command: { value: "sleep 600" },
    restartPolicy: { maxFailures: 0 },
  },
});

const LONG = [{ key: SIM_DURATION_KEY, value: "600000" }];

/** Every instance RUNNING in a run above `run`, with its failure count. */
async function replacedAndRunning(jobId: string, run: number) {
  await expect
    .poll(
      async () => (await tasksOf(jobId)).every((t) => t.state === "RUNNING" && t.run_id > run),
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
  return tasksOf(jobId);
}

async function lostEvents(jobId: string) {
  return directSql<{ reason: string | null; message: string | null }>(
    `SELECT reason, message FROM task_events WHERE job_id = $1 AND state = 'LOST' ORDER BY id`,
    [jobId],
  );
}

describe("restarts the system caused are not task failures", () => {
  it("a run lost with its agent is replaced on another host and not counted", async () => {
    const sim = await testSim({ agents: [agent("a1.test"), agent("a2.test")] });
    await runtimeOn(sim.url);
    const pool = await leafPool(gateway, "web", ROOMY);
    const jobId = await submit(gateway, pool, service(2, LONG));
    await expect
      .poll(async () => (await tasksOf(jobId)).map((t) => t.state), { timeout: 20_000 })
      .toEqual(["RUNNING", "RUNNING"]);
    const onA1 = (await tasksOf(jobId)).filter((t) => t.hostname === "a1.test");
    expect(onA1.length).toBeGreaterThan(0);
    const a1 = sim.agents().find((a) => a.hostname === "a1.test")!;
    sim.removeAgent(a1.id);
    const moved = new Set(onA1.map((t) => t.instance_id));
    await expect
      .poll(
        async () =>
          (await tasksOf(jobId))
            .filter((t) => moved.has(t.instance_id))
            .map((t) => [t.state, t.run_id, t.hostname, t.failure_count]),
        { timeout: 20_000, interval: 100 },
      )
      .toEqual(onA1.map(() => ["RUNNING", 2, "a2.test", 0]));
    expect((await lostEvents(jobId)).map((e) => e.reason)).toContain("REASON_AGENT_REMOVED");
  });

  it("a host taken down for maintenance (agent gone by operator): replaced, not counted", async () => {
    const sim = await testSim({ agents: [agent("a1.test"), agent("a2.test")] });
    await runtimeOn(sim.url);
    const pool = await leafPool(gateway, "web", ROOMY);
    const jobId = await submit(gateway, pool, service(1, LONG));
    await expect
      .poll(async () => (await tasksOf(jobId))[0]?.state, { timeout: 20_000 })
      .toBe("RUNNING");
    const host = (await tasksOf(jobId))[0]!.hostname;
    const down = sim.agents().find((a) => a.hostname === host)!;
    sim.removeAgent(down.id, { gone: true });
    await expect
      .poll(async () => (await tasksOf(jobId))[0], { timeout: 20_000, interval: 100 })
      .toMatchObject({ state: "RUNNING", run_id: 2, failure_count: 0 });
    expect((await lostEvents(jobId)).map((e) => e.reason)).toEqual([
      "REASON_AGENT_REMOVED_BY_OPERATOR",
    ]);
  });

  it("a preempted run is killed and replaced without counting", async () => {
    const sim = await testSim({ agents: [agent("a1.test")] });
    await runtimeOn(sim.url);
    const pool = await leafPool(gateway, "web", ROOMY);
    const jobId = await submit(gateway, pool, service(1, LONG));
    await expect
      .poll(async () => (await tasksOf(jobId))[0]?.state, { timeout: 20_000 })
      .toBe("RUNNING");
    // The preemptor's move (preemptions.recordMany writes exactly this); the goal-state
    // loop sends the kill of a run left in PREEMPTING, and the cluster's KILLED ends it.
    await directSql(
      `UPDATE tasks SET state = 'PREEMPTING', reason = 'PREEMPTED', updated_at = now() - interval '1 minute'
       WHERE job_id = $1`,
      [jobId],
    );
    await expect
      .poll(async () => (await tasksOf(jobId))[0], { timeout: 20_000, interval: 100 })
      .toMatchObject({ state: "RUNNING", run_id: 2, failure_count: 0 });
    const ended = await directSql<{ reason: string | null }>(
      "SELECT reason FROM task_events WHERE job_id = $1 AND state = 'KILLED'",
      [jobId],
    );
    expect(ended.map((e) => e.reason)).toEqual(["PREEMPTED"]);
  });

  it("a scheduler restart onto a cluster that lost every run: LOST, replaced, nothing counted", async () => {
    const first = await testSim({ agents: [agent("a1.test")] });
    const a = await runtimeOn(first.url);
    const pool = await leafPool(gateway, "web", ROOMY);
    const jobId = await submit(gateway, pool, service(3, LONG));
    await expect
      .poll(async () => (await tasksOf(jobId)).map((t) => t.state), { timeout: 20_000 })
      .toEqual(["RUNNING", "RUNNING", "RUNNING"]);
    // The launcher's in-process cluster dies with it: the next one knows none of the runs.
    await a.stop();
    await first.stop();
    const second = await testSim({ agents: [agent("a1.test")] });
    await runtimeOn(second.url);
    const after = await replacedAndRunning(jobId, 1);
    expect(after.map((t) => [t.run_id, t.failure_count])).toEqual([
      [2, 0],
      [2, 0],
      [2, 0],
    ]);
    expect((await lostEvents(jobId)).length).toBe(3);
  });

  it("after a scheduler restart, runs that finished meanwhile are not killed, and no line per run is logged", async () => {
    const sim = await testSim({ agents: [agent("a1.test"), agent("a2.test")] });
    // The first scheduler commits every update but its acknowledgements never arrive
    // (as if it died after each commit): Mesos keeps each run's first update to send again.
    const acks = vi.spyOn(MesosSchedulerClient.prototype, "acknowledge").mockResolvedValue();
    const a = await runtimeOn(sim.url);
    const pool = await leafPool(gateway, "batch", ROOMY);
    const instances = 40;
    const jobId = await submit(gateway, pool, {
      name: "short",
      instanceCount: instances,
      labels: [{ key: SIM_DURATION_KEY, value: "1500" }],
      defaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 16 }, command: { value: "true" } },
    });
    // Unacknowledged, each run's next update waits behind its first: the database saw STARTING.
    await expect
      .poll(async () => (await tasksOf(jobId)).filter((t) => t.state === "STARTING").length, {
        timeout: 20_000,
      })
      .toBe(instances);
    await a.stop();
    acks.mockRestore();
    // Every run finishes while no scheduler listens.
    await expect
      .poll(() => sim.tasks().filter((t) => t.state === "TASK_FINISHED").length, {
        timeout: 20_000,
      })
      .toBe(instances);

    const kills = vi.spyOn(MesosSchedulerClient.prototype, "kill");
    const { logger, entries } = recordingLogger();
    await runtimeOn(sim.url, logger);
    await expect
      .poll(async () => (await tasksOf(jobId)).map((t) => t.state), { timeout: 20_000 })
      .toEqual(Array(instances).fill("SUCCEEDED"));
    // Every run's old updates came again and were answered; let the last of them land.
    await expect.poll(() => sim.tasks().length, { timeout: 20_000 }).toBe(0);
    await new Promise((r) => setTimeout(r, 500));

    expect(kills).not.toHaveBeenCalled();
    const rows = await tasksOf(jobId);
    expect(rows.map((t) => [t.run_id, t.failure_count])).toEqual(Array(instances).fill([1, 0]));
    const perRun = entries.filter((e) => Number(e.level) >= 40 && "taskId" in e);
    expect(perRun).toEqual([]);
    expect(entries.some((e) => e.msg === "killing a run the scheduler does not know")).toBe(false);
    // Reconciliation answered each run in the state of its re-sent update (as
    // Mesos does), so the runs' updates came in order: every run was RUNNING.
    const running = await directSql<{ n: number }>(
      "SELECT count(DISTINCT instance_id)::int AS n FROM task_events WHERE job_id = $1 AND state = 'RUNNING'",
      [jobId],
    );
    expect(running[0]?.n).toBe(instances);
    // Whatever was answered quietly is said in aggregate, never per run.
    const summaries = entries.filter((e) => e.msg === "status updates about ended or unknown runs");
    expect(summaries.length).toBeLessThan(instances);
    expect(summaries.some((e) => "orphansKilled" in e)).toBe(false);
  });

  it("after a scheduler restart, a run the cluster still runs and the database does not want is killed, said once", async () => {
    const sim = await testSim({ agents: [agent("a1.test")] });
    const a = await runtimeOn(sim.url);
    const pool = await leafPool(gateway, "web", ROOMY);
    const jobId = await submit(gateway, pool, service(1, LONG));
    await expect
      .poll(async () => (await tasksOf(jobId))[0]?.state, { timeout: 20_000 })
      .toBe("RUNNING");
    await a.stop();
    // While no scheduler runs, the database moves on from that run (its record of it is gone).
    const [row] = await directSql<{ mesos_task_id: string }>(
      "SELECT mesos_task_id FROM tasks WHERE job_id = $1",
      [jobId],
    );
    await directSql(
      `UPDATE tasks SET mesos_task_id = mesos_task_id || '-forgotten', state = 'KILLED', goal_state = 'KILLED'
       WHERE job_id = $1`,
      [jobId],
    );
    const orphan = row!.mesos_task_id;

    const kills = vi.spyOn(MesosSchedulerClient.prototype, "kill");
    const { logger, entries } = recordingLogger();
    await runtimeOn(sim.url, logger);
    await expect
      .poll(() => sim.tasks().find((t) => t.taskId === orphan)?.state ?? "GONE", {
        timeout: 20_000,
      })
      .toMatch(/TASK_KILLED|GONE/);
    expect(kills.mock.calls.map((c) => c[0])).toEqual([orphan]);
    await expect
      .poll(() => entries.filter((e) => e.msg === "status updates about ended or unknown runs"), {
        timeout: 5_000,
      })
      .toContainEqual(expect.objectContaining({ orphansKilled: 1 }));
    expect(entries.filter((e) => Number(e.level) >= 40 && "taskId" in e)).toEqual([]);
  });
});
