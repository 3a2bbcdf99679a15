/**
 * STARTING coalesced, against the database: the job manager's status
 * handler with the real task writer. TASK_STARTING then TASK_RUNNING of one
 * run cost one write of the task row (its version moves once) and two
 * task_events rows in one transaction, in order; the job's counts move from
 * LAUNCHING straight to RUNNING. A STARTING alone is still written.
 */
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { StatusUpdates } from "../src/jobmgr/status-updates.ts";
import { JobConfigs } from "../src/taskwriter/job-configs.ts";
import { TaskWriter } from "../src/taskwriter/task-writer.ts";
import { batchJob, log } from "./support/cluster.ts";
import { statusUpdate } from "./support/status-updates.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

/** One task of a batch job, LAUNCHING on a1.test as `<job>-0-1` (the job's counts say so too). */
async function launchingTask() {
  const { jobId, taskIds } = await batchJob(gateway, 1);
  const clusterTaskId = `${jobId}-0-1`;
  await directSql(
    `UPDATE tasks SET state = 'LAUNCHING', mesos_task_id = $2, hostname = 'a1.test',
            agent_id = 'agent-1' WHERE id = $1`,
    [taskIds[0], clusterTaskId],
  );
  await directSql(`UPDATE jobs SET task_stats = '{"LAUNCHING": 1}' WHERE id = $1`, [jobId]);
  const [row] = await directSql<{ version: number }>("SELECT version FROM tasks WHERE id = $1", [
    taskIds[0],
  ]);
  return { jobId, taskId: taskIds[0]!, clusterTaskId, version: row!.version };
}

function handler(windowMs: number, startingHoldMs?: number) {
  const writer = new TaskWriter(gateway, log);
  const updates = new StatusUpdates({
    gateway,
    writer,
    configs: new JobConfigs(gateway),
    log,
    kill: () => undefined,
    windowMs,
    ...(startingHoldMs !== undefined ? { startingHoldMs } : {}),
  });
  return { handle: updates.handle, writer };
}

async function taskAndEvents(taskId: string) {
  const [task] = await directSql<{ state: string; version: number; started_at: Date | null }>(
    "SELECT state::text, version, started_at FROM tasks WHERE id = $1",
    [taskId],
  );
  const events = await directSql<{ previous_state: string | null; state: string }>(
    `SELECT previous_state::text, state::text FROM task_events
     WHERE task_id = $1 AND previous_state IS NOT NULL ORDER BY id`,
    [taskId],
  );
  return { task: task!, events };
}

describe("STARTING and RUNNING of one run in one status batch", () => {
  it("write the task row once, as RUNNING, and both events in order", async () => {
    const t = await launchingTask();
    const { handle, writer } = handler(30);
    await handle(statusUpdate(t.clusterTaskId, "TASK_STARTING", "STARTING"));
    await handle(statusUpdate(t.clusterTaskId, "TASK_RUNNING", "RUNNING"));
    const { task, events } = await taskAndEvents(t.taskId);
    expect(task.state).toBe("RUNNING");
    expect(task.version).toBe(t.version + 1);
    expect(task.started_at).toBeInstanceOf(Date);
    expect(events).toEqual([
      { previous_state: "LAUNCHING", state: "STARTING" },
      { previous_state: "STARTING", state: "RUNNING" },
    ]);
    expect(writer.stats).toMatchObject({ transactions: 1, applied: 1, events: 2 });
    const [job] = await directSql<{ task_stats: Record<string, number> }>(
      "SELECT task_stats FROM jobs WHERE id = $1",
      [t.jobId],
    );
    expect(job!.task_stats).toMatchObject({ RUNNING: 1 });
    expect(job!.task_stats.LAUNCHING ?? 0).toBe(0);
    expect(job!.task_stats.STARTING ?? 0).toBe(0);
  });

  it("a STARTING alone is written as STARTING once its hold ends", async () => {
    const t = await launchingTask();
    const { handle, writer } = handler(1, 20);
    await handle(statusUpdate(t.clusterTaskId, "TASK_STARTING", "STARTING"));
    await new Promise((r) => setTimeout(r, 60));
    await writer.idle();
    const { task, events } = await taskAndEvents(t.taskId);
    expect(task.state).toBe("STARTING");
    expect(task.version).toBe(t.version + 1);
    expect(events).toEqual([{ previous_state: "LAUNCHING", state: "STARTING" }]);
  });
});
