/**
 * Health checks end to end on mesos-sim (issue 17 §2): a service whose
 * COMMAND check passes is stored HEALTHY; when the check starts failing
 * the run turns UNHEALTHY, mesos-sim kills it after maxConsecutiveFailures,
 * and the job manager starts a new run, whose health starts over.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { leafPool, ROOMY, submit } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { startScheduler } from "../src/assembly/replica.ts";
import { mesosHostAdapter } from "../src/hostmgr/mesos/mesos-adapter.ts";
import { log, onCleanup, testSim } from "./support/cluster.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

interface HealthRow {
  run_id: number;
  state: string;
  health: string | null;
  health_message: string | null;
  mesos_task_id: string | null;
}

async function healthOf(jobId: string): Promise<HealthRow> {
  const [row] = await directSql<HealthRow>(
    `SELECT run_id, state::text,
            CASE WHEN health_run_id = run_id THEN health::text END AS health,
            health_message, mesos_task_id
     FROM tasks WHERE job_id = $1 AND instance_id = 0`,
    [jobId],
  );
  return row!;
}

describe("health checks on mesos-sim", () => {
  it("HEALTHY, then UNHEALTHY, then killed and restarted by the job manager", async () => {
    const sim = await testSim();
    const runtime = startScheduler({
      databaseUrl: inject("databaseUrl"),
      adapter: mesosHostAdapter({
        master: sim.url,
        hostRefreshMs: 200,
        client: { backoff: { initialMs: 20, maxMs: 200 } },
      }),
      log,
      election: { retryMs: 100, renewMs: 500 },
      drainPeriodMs: 200,
      scheduling: {
        admissionPeriodMs: 200,
        placement: { periodMs: 200 },
        goalState: { periodMs: 200, clusterTimeoutMs: 3_000 },
      },
    });
    onCleanup(() => runtime.stop());
    await runtime.ready();
    const pool = await leafPool(gateway, "web", ROOMY);
    const jobId = await submit(gateway, pool, {
      name: "web",
      type: "SERVICE",
      instanceCount: 1,
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "touch ok; sleep 600" },
        healthCheck: {
          enabled: true,
          type: "COMMAND",
          initialIntervalSecs: 1,
          intervalSecs: 1,
          timeoutSecs: 2,
          maxConsecutiveFailures: 2,
          commandCheck: { command: "test -f ok" },
        },
      },
    });

    await expect
      .poll(async () => (await healthOf(jobId)).health, { timeout: 20_000, interval: 100 })
      .toBe("HEALTHY");
    const first = await healthOf(jobId);
    expect(first).toMatchObject({ run_id: 1, state: "RUNNING" });

    // The check's file goes: UNHEALTHY, then the kill after two failures.
    rmSync(join(sim.sandboxPath(first.mesos_task_id!)!, "ok"));
    await expect
      .poll(async () => (await healthOf(jobId)).health, { timeout: 20_000, interval: 100 })
      .toBe("UNHEALTHY");
    await expect
      .poll(async () => await healthOf(jobId), { timeout: 30_000, interval: 100 })
      .toMatchObject({ run_id: 2, state: "RUNNING", health: "HEALTHY" });

    const events = await directSql<{
      run_id: number;
      state: string;
      health: string | null;
      message: string;
    }>(
      `SELECT run_id, state::text, health::text, message FROM task_events
       WHERE job_id = $1 AND (health IS NOT NULL OR state = 'KILLED') ORDER BY id`,
      [jobId],
    );
    expect(events.slice(0, 3)).toMatchObject([
      { run_id: 1, state: "RUNNING", health: "HEALTHY" },
      { run_id: 1, state: "RUNNING", health: "UNHEALTHY" },
      { run_id: 1, state: "KILLED", health: null },
    ]);
    expect(events[0]!.message).toBe("HEALTH_UNKNOWN → HEALTHY: the health check passed");
    expect(events[2]!.message).toMatch(/^ended unhealthy \(its health check failed\): Command/);
    expect(events[3]).toMatchObject({ run_id: 2, state: "RUNNING", health: "HEALTHY" });
  });
});
