/**
 * kill -9 of the leader in the middle of a 10,000-task launch, then a new
 * leader: every instance ends up running exactly once, checked against
 * mesos-sim's own record of the tasks it was asked to launch.
 */
import { agent, leafPool, ROOMY, submit } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { onCleanup, testSim } from "./support/cluster.ts";
import { recordLaunches } from "./support/launch-recorder.ts";
import { replicaProcess } from "./support/replica-process.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const INSTANCES = 10_000;

describe("leader killed during a launch", () => {
  it("kill -9 mid-launch, new leader: 0 lost, 0 launched twice", async () => {
    const sim = await testSim({
      // 20 × 64 cores for 10,000 tasks of 0.1 core: room for all of them.
      agents: Array.from({ length: 20 }, (_, i) =>
        agent(`k-${i}.test`, {
          resources: { cpus: 64, mem: 262_144, disk: 1_000_000 },
          simulateTasks: true,
        }),
      ),
      heartbeatIntervalSeconds: 1,
    });
    const recorder = await recordLaunches(sim.url);
    onCleanup(() => recorder.close());
    // 10,000 × 0.1 core is ROOMY's whole limit: a little more, so float sums never decide.
    const pool = await leafPool(gateway, "batch", {
      ...ROOMY,
      cpu: { reservation: 1_200, limit: 1_200, share: 1 },
    });
    const first = await replicaProcess("replica-a", recorder.url);
    const jobId = await submit(gateway, pool, {
      name: "wide",
      type: "SERVICE",
      instanceCount: INSTANCES,
      defaultConfig: {
        resource: { cpuLimit: 0.1, memLimitMb: 32, diskLimitMb: 10 },
        command: { value: "sleep 600" },
      },
    });

    // Mid-launch: some tasks are on the agents, most are not yet.
    await expect
      .poll(() => sim.tasks().length, { timeout: 60_000, interval: 20 })
      .toBeGreaterThanOrEqual(1_000);
    first.kill("SIGKILL");
    const launchedBeforeKill = sim.tasks().length;
    expect(launchedBeforeKill).toBeLessThan(INSTANCES);
    await replicaProcess("replica-b", recorder.url);

    await expect
      .poll(
        async () =>
          (
            await directSql<{ n: number }>(
              "SELECT count(*)::int AS n FROM tasks WHERE job_id = $1 AND state = 'RUNNING'",
              [jobId],
            )
          )[0]!.n,
        { timeout: 300_000, interval: 500 },
      )
      .toBe(INSTANCES);

    // The master's record of launches: each instance launched exactly once.
    const ours = recorder.launched.filter((id) => id.startsWith(jobId));
    const instanceOf = (taskId: string) => taskId.slice(0, taskId.lastIndexOf("-"));
    const launchesPerInstance = new Map<string, number>();
    for (const id of ours)
      launchesPerInstance.set(instanceOf(id), (launchesPerInstance.get(instanceOf(id)) ?? 0) + 1);
    expect(launchesPerInstance.size).toBe(INSTANCES);
    expect([...launchesPerInstance].filter(([, n]) => n > 1)).toEqual([]);
    // What runs now is exactly what was launched, and the database agrees.
    const running = sim.tasks().filter((t) => t.taskId.startsWith(jobId));
    expect(running.filter((t) => t.state !== "TASK_RUNNING")).toEqual([]);
    expect(new Set(running.map((t) => t.taskId))).toEqual(new Set(ours));
    const runs = await directSql<{ task_id: string }>(
      "SELECT job_id || '-' || instance_id || '-' || run_id AS task_id FROM tasks WHERE job_id = $1",
      [jobId],
    );
    expect(new Set(runs.map((r) => r.task_id))).toEqual(new Set(ours));
    // Nothing that ran was lost: the runs marked LOST are the ones the dead
    // leader recorded as launching but never got to the master (the new
    // leader's reconciliation finds them unknown and launches them anew).
    const lostRuns = await directSql<{ task_id: string }>(
      `SELECT job_id || '-' || instance_id || '-' || run_id AS task_id FROM task_events
        WHERE job_id = $1 AND state = 'LOST'`,
      [jobId],
    );
    const launchedIds = new Set(ours);
    expect(lostRuns.filter((r) => launchedIds.has(r.task_id))).toEqual([]);
  }, 400_000);
});
