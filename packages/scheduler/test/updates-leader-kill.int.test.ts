/**
 * kill -9 of the leading scheduler in the middle of an update, then a new
 * leader in a new process: the update finishes from its rows in PostgreSQL,
 * every instance ends on the new version, and the master runs each instance
 * exactly once (no duplicate run).
 */
import { agent, leafPool, ROOMY, submit } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { testSim } from "./support/cluster.ts";
import { replicaProcess } from "./support/replica-process.ts";
import { instanceVersions, serviceConfig, startUpdate, updateOf } from "./support/updates.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const INSTANCES = 10;

describe("leader killed during an update", () => {
  it("kill -9 mid-update, new leader: the update finishes, no duplicate instance", async () => {
    const sim = await testSim({ agents: [agent("k-1.test"), agent("k-2.test")] });
    const pool = await leafPool(gateway, "web", ROOMY);
    const first = await replicaProcess("replica-a", sim.url);
    const jobId = await submit(gateway, pool, serviceConfig(INSTANCES, "sleep 600"));
    await expect
      .poll(
        async () => (await instanceVersions(jobId)).filter((r) => r.state === "RUNNING").length,
        {
          timeout: 60_000,
          interval: 100,
        },
      )
      .toBe(INSTANCES);

    const id = await startUpdate(gateway, jobId, serviceConfig(INSTANCES, "sleep 601"), {
      batchSize: 2,
    });
    // Mid-update: some instances are done, most are not.
    await expect
      .poll(async () => (await updateOf(gateway, id)).instancesDone.length, {
        timeout: 60_000,
        interval: 20,
      })
      .toBeGreaterThanOrEqual(2);
    first.kill("SIGKILL");
    const atKill = await updateOf(gateway, id);
    expect(atKill.state).toBe("ROLLING_FORWARD");
    expect(atKill.instancesDone.length).toBeLessThan(INSTANCES);

    await replicaProcess("replica-b", sim.url);
    await expect
      .poll(async () => (await updateOf(gateway, id)).state, { timeout: 120_000, interval: 200 })
      .toBe("SUCCEEDED");
    await expect
      .poll(async () => (await instanceVersions(jobId)).map((r) => [r.config_version, r.state]), {
        timeout: 30_000,
        interval: 200,
      })
      .toEqual(Array.from({ length: INSTANCES }, () => [2, "RUNNING"]));

    // One task row per instance, and the master runs exactly the run each row names.
    const runs = await directSql<{ task_id: string }>(
      "SELECT job_id || '-' || instance_id || '-' || run_id AS task_id FROM tasks WHERE job_id = $1",
      [jobId],
    );
    expect(runs).toHaveLength(INSTANCES);
    const live = sim
      .tasks()
      .filter((t) => t.taskId.startsWith(jobId) && t.state === "TASK_RUNNING")
      .map((t) => t.taskId);
    expect(new Set(live)).toEqual(new Set(runs.map((r) => r.task_id)));
    expect(live).toHaveLength(INSTANCES);
  }, 240_000);
});
