/**
 * `job stop` of a large busy job while the task writer records its status
 * batches (issue 13: 40P01 twice in three tries with a 100k-instance job).
 * The stop sets the goal of every task of the job; the writer moves
 * thousands of them per transaction, in whatever order the cluster reported
 * them. Both must take their row locks in one order, so neither the stop
 * nor a writer transaction is ever chosen as a deadlock victim.
 */
import type { TaskState } from "@peloton/engine";
import type { TaskChange } from "@peloton/storage";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { pino } from "pino";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { actOnJob } from "../src/jobmgr/actions.ts";
import { TaskWriter } from "../src/taskwriter/task-writer.ts";
import { batchJob } from "./support/cluster.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const INSTANCES = 20_000;
const BATCH = 2_000;

/** A logger that keeps the writer's warnings (a retried deadlock says so). */
function warningsLogger() {
  const warnings: string[] = [];
  const log = pino(
    { level: "warn" },
    { write: (line: string) => void warnings.push(String(JSON.parse(line).msg)) },
  );
  return { log, warnings };
}

/** Fisher–Yates with a seeded step, so a failure replays. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The status batches of a launch: every task PLACED → STARTING → RUNNING,
 * each step in batches of shuffled tasks (the order updates arrive in), all
 * handed to the writer at once as a busy cluster does.
 */
function statusBatches(jobId: string, taskIds: readonly string[], seed: number): TaskChange[][] {
  const steps: [TaskState, TaskState][] = [
    ["PLACED", "STARTING"],
    ["STARTING", "RUNNING"],
  ];
  const batches: TaskChange[][] = [];
  steps.forEach(([from, to], step) => {
    const order = shuffled(
      taskIds.map((id, instanceId) => ({ id, instanceId })),
      seed + step,
    );
    for (let i = 0; i < order.length; i += BATCH)
      batches.push(
        order.slice(i, i + BATCH).map((t) => ({
          taskId: t.id,
          jobId,
          instanceId: t.instanceId,
          expect: { state: from, runId: 1 },
          state: to,
          reason: `TASK_${to}`,
          message: null,
          events: [],
        })),
      );
  });
  return batches;
}

async function deadlocksSoFar(): Promise<number> {
  const [row] = await directSql<{ n: string }>(
    "SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()",
  );
  return Number(row?.n ?? 0);
}

describe("job stop of a large job while its tasks are being updated", () => {
  it("never deadlocks with the task writer (three rounds)", async () => {
    const before = await deadlocksSoFar();
    for (let round = 1; round <= 3; round++) {
      const { jobId, taskIds } = await batchJob(gateway, INSTANCES);
      const { log, warnings } = warningsLogger();
      const writer = new TaskWriter(gateway, log, { windowMs: 1 });
      let settled = 0;
      const writes = statusBatches(jobId, taskIds, round).map((changes) =>
        writer.write({ changes }).finally(() => settled++),
      );
      // Let the first transactions take their locks, then stop the job among them.
      await new Promise((r) => setTimeout(r, 30 * round));
      const stop = actOnJob(gateway, jobId, { kind: "stop" }, { login: "test", via: "test" });
      // The stop really ran while status batches were still being written.
      expect(settled).toBeLessThan(writes.length);
      const [stopped, ...written] = await Promise.all([stop, ...writes]);
      expect(stopped).toMatchObject({ ok: true, goalState: "KILLED" });
      expect(warnings).toEqual([]);
      // Every status batch found its rows: the stop wrote intent only.
      expect(written.flatMap((o) => o.missed)).toEqual([]);
      const [goals] = await directSql<{ killed: string; running: string }>(
        `SELECT count(*) FILTER (WHERE goal_state = 'KILLED')::text AS killed,
                count(*) FILTER (WHERE state = 'RUNNING')::text AS running
         FROM tasks WHERE job_id = $1`,
        [jobId],
      );
      expect(goals).toEqual({ killed: String(INSTANCES), running: String(INSTANCES) });
      await resetDatabase();
    }
    // PostgreSQL's own count of deadlocks it broke (flushed within a second).
    await new Promise((r) => setTimeout(r, 1_200));
    await directSql("SELECT pg_stat_clear_snapshot()");
    expect(await deadlocksSoFar()).toBe(before);
  }, 240_000);
});
