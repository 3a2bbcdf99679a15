/**
 * READY lives in the leader's memory (issue 20): admission writes nothing
 * for a task it admits on its first round, placement writes PENDING →
 * LAUNCHING with both events, and READY rows an older leader wrote go back
 * in line when a leader starts.
 */
import {
  agent,
  allIn,
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
import { startAdmission, takeAdmitted } from "./support/admission.ts";
import { onCleanup } from "./support/cluster.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const job = (name: string, instances: number) => ({
  name,
  instanceCount: instances,
  defaultConfig: { resource: { cpuLimit: 0.5, memLimitMb: 64 }, command: { value: "true" } },
});

describe("admitted tasks wait in the leader's memory", () => {
  it("a task admitted and launched keeps its admission in the timeline, written with its LAUNCHING", async () => {
    // Every state the rows are written in, as PostgreSQL sees the updates.
    await directSql(`
      CREATE TABLE written_states (task_id uuid, state text, at timestamptz DEFAULT clock_timestamp());
      CREATE FUNCTION record_written_state() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO written_states (task_id, state) VALUES (NEW.id, NEW.state::text); RETURN NEW; END $$;
      CREATE TRIGGER record_written_state AFTER UPDATE OF state ON tasks
        FOR EACH ROW WHEN (NEW.state IS DISTINCT FROM OLD.state) EXECUTE FUNCTION record_written_state();`);
    onCleanup(async () => {
      await directSql(`DROP TRIGGER record_written_state ON tasks;
                       DROP FUNCTION record_written_state(); DROP TABLE written_states`);
    });
    await startSystem([agent("m-1.test")]);
    const pool = await leafPool(gateway, "mem", ROOMY);
    const id = await submit(gateway, pool, job("first-round", 2));
    await allIn(id, "SUCCEEDED");
    const written = await directSql<{ state: string }>(
      `SELECT w.state FROM written_states w JOIN tasks t ON t.id = w.task_id
       WHERE t.job_id = $1 AND t.instance_id = 0 ORDER BY w.at`,
      [id],
    );
    // The row went from PENDING straight to LAUNCHING: READY was never written.
    expect(written[0]!.state).toBe("LAUNCHING");
    expect(written.map((w) => w.state)).not.toContain("READY");
    const events = await eventsOf(id, 0);
    expect(events.map((e) => `${e.previous_state ?? "·"}→${e.state} ${e.source}`)).toEqual([
      "·→PENDING JOB_MANAGER",
      "PENDING→READY RESOURCE_MANAGER",
      "READY→LAUNCHING PLACEMENT",
      expect.stringMatching(/^LAUNCHING→(LAUNCHED|STARTING|RUNNING) /),
      ...events.slice(4).map(() => expect.any(String)),
    ]);
    expect(events[1]!.message).toBe("admitted in pool /mem (its non-preemptible queue)");
  });

  it("READY rows an older leader left go back in line with an event, and are admitted again", async () => {
    await gateway.hosts.upsert({
      hostname: "h-1.test",
      agentId: "agent-h-1",
      attributes: {},
      cpu: 8,
      memMb: 8192,
      diskMb: 100_000,
      gpu: 0,
      ports: [[31000, 31009]],
      state: "UP",
    });
    const pool = await leafPool(gateway, "old", ROOMY);
    const id = await submit(gateway, pool, job("left-over", 1));
    await directSql("UPDATE tasks SET state = 'READY' WHERE job_id = $1", [id]);

    const { admitted } = startAdmission(gateway);

    await expect.poll(() => takeAdmitted(admitted), { timeout: 10_000 }).toEqual([id]);
    const [task] = await tasksOf(id);
    expect(task).toMatchObject({ state: "PENDING", reason: "REQUEUED" });
    expect((await eventsOf(id, 0)).at(-1)).toMatchObject({
      previous_state: "READY",
      state: "PENDING",
      reason: "REQUEUED",
      message: "admitted by an earlier leader, which kept it in memory: back in line",
    });
  });
});
