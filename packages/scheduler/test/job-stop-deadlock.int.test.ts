/**
 * `job stop` while the leader writes the same job's rows in the other order
 * (tasks after the job row, as a status batch may): PostgreSQL detects the
 * deadlock and aborts the stop's transaction. Before the generic retry the
 * API answered that with a 500; now the stop runs again and succeeds.
 */
import { openGateway, type StorageGateway } from "@peloton/storage";
import { leafPool, ROOMY, submit } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { actOnJob } from "../src/jobmgr/actions.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/** Holds the job row, then (once the stop holds the task rows and waits for the job row) wants a task row. */
async function crossingWriter(jobId: string) {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  opened.push({ close: () => client.end() });
  await client.query("BEGIN");
  await client.query("UPDATE jobs SET name = name WHERE id = $1", [jobId]);
  return {
    /**
     * False when PostgreSQL chose this writer as the victim instead (its
     * deadlock check ran first: the machine was slow to cross within the
     * stop's 1 s deadlock_timeout); the attempt then proves nothing.
     */
    async crossOnceStopWaits(): Promise<boolean> {
      // The stop has updated the tasks and now waits for the job row.
      await expect
        .poll(
          async () =>
            (
              await directSql<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                  WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE jobs SET%goal_state%'`,
              )
            )[0]!.n,
          { timeout: 5_000, interval: 20 },
        )
        .toBe(1);
      try {
        await client.query("UPDATE tasks SET priority = priority WHERE job_id = $1", [jobId]);
        await client.query("COMMIT");
        return true;
      } catch (err) {
        await client.query("ROLLBACK");
        if ((err as { code?: string }).code === "40P01") return false;
        throw err;
      }
    },
  };
}

async function jobWithTasks(g: StorageGateway): Promise<string> {
  const pool = await leafPool(g, "batch", ROOMY);
  return submit(g, pool, {
    name: "busy",
    type: "SERVICE",
    instanceCount: 50,
    defaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 32 }, command: { value: "sleep 600" } },
  });
}

/** Runs the crossing until the stop is the deadlock's victim (at most 3 tries); returns its outcome. */
async function stopCrossed(
  g: StorageGateway,
): Promise<{ jobId: string; outcome: unknown; stopWasVictim: boolean }> {
  for (let attempt = 1; ; attempt++) {
    await resetDatabase();
    const jobId = await jobWithTasks(gateway);
    const writer = await crossingWriter(jobId);
    const stop = actOnJob(g, jobId, { kind: "stop" }, { login: "alice", via: "test" }).catch(
      (e: unknown) => e,
    );
    const stopWasVictim = await writer.crossOnceStopWaits();
    const outcome = await stop;
    if (stopWasVictim || attempt === 3) return { jobId, outcome, stopWasVictim };
  }
}

describe("job stop against a crossing writer", () => {
  it("without retries the stop fails with the deadlock (the 500 users saw)", async () => {
    const noRetry = openGateway(inject("databaseUrl"), { max: 2, retry: { attempts: 1 } });
    opened.push(noRetry);
    const { outcome, stopWasVictim } = await stopCrossed(noRetry);
    expect(stopWasVictim).toBe(true);
    expect(String(outcome)).toMatch(/40P01|deadlock/);
  });

  it("with the gateway's retry the stop succeeds after the deadlock", async () => {
    const { jobId, outcome, stopWasVictim } = await stopCrossed(gateway);
    expect(stopWasVictim).toBe(true);
    expect(outcome).toMatchObject({ ok: true, goalState: "KILLED" });
    const goals = await directSql<{ goal_state: string; n: number }>(
      "SELECT goal_state::text, count(*)::int AS n FROM tasks WHERE job_id = $1 GROUP BY goal_state",
      [jobId],
    );
    expect(goals).toEqual([{ goal_state: "KILLED", n: 50 }]);
  });
});
