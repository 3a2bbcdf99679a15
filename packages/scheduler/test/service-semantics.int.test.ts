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
});
