/**
 * The preemptor's write path end to end on stored data: the engine decides on
 * the demo tree, `preemptionRowOf` words it, `recordMany` moves each victim
 * with its event and row, and a victim that runs again is marked as back.
 */

import {
  preemptionScenario,
  type ScenarioOutcome,
} from "@peloton/test-support/scheduler/preemption-scenario.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoData } from "../src/index.ts";

const gateway = testGateway();
afterAll(() => gateway.close());

const NOW = new Date("2026-11-23T12:00:00.000Z");
/** The browser tests' cluster: 8 + 8 + 32 cores, 4 GPUs. */
const CAPACITY = { cpu: 48, memory: 196608, disk: 700000, gpu: 4 };
let s: ScenarioOutcome;

beforeAll(async () => {
  await resetDatabase();
  await seedDemoData(gateway);
  s = await preemptionScenario(gateway, inject("databaseUrl"), {
    now: NOW,
    capacity: CAPACITY,
    hostname: "host-1",
  });
});

describe("the preemptor's write path on the demo tree", () => {
  it("cycle 1: /web gives back its cpu excess to /infra/batch, decided at the root", () => {
    const [first] = s.cycles;
    expect(first.outcome.stale).toEqual([]);
    expect(
      first.rows.map((r) => [r.kind, r.victim.poolPath, r.beneficiary?.poolPath, r.level]),
    ).toEqual([
      ["INTER_POOL", "/web", "/infra/batch", "/"],
      ["INTER_POOL", "/web", "/infra/batch", "/"],
    ]);
    // READY first (rank 1), then the lowest-priority running task (rank 2).
    expect(first.rows.map((r) => [r.victim.jobName, r.victim.state, r.numbers.rank])).toEqual([
      ["web-reports", "READY", 1],
      ["web-reports", "RUNNING", 2],
    ]);
    // web-frontend 6 × 3 + web-reports 4 × 3 = 30 cores held, 24 entitled: 6 to give back.
    expect(s.killed.numbers).toMatchObject({
      allocation: { cpu: 30 },
      entitlement: { cpu: 24 },
      excess: { cpu: 6 },
      remaining: { cpu: 3 },
      victim: { cpu: 3 },
    });
    expect(s.killed.reason).toMatch(
      /^\/web was over its cpu entitlement by 6 cores \(allocation 30, entitlement 24\) while \/infra\/batch waited for 24 cores, decided at \/; preempted running task web-reports\/[0-2] \(priority 1\)/,
    );
  });

  it("each victim was moved with its event; the one sent back came back and finished", async () => {
    expect(s.killed.taskNow).toEqual({ state: "PREEMPTING", runId: 1 });
    expect(s.killed.rescheduled).toBeNull();
    expect(s.cameBack.victim.stateAfter).toBe("PENDING");
    expect(s.cameBack.rescheduled).toEqual({ at: new Date(NOW.getTime() - 35 * 60_000), runId: 1 });
    expect(s.cameBack.taskNow).toEqual({ state: "SUCCEEDED", runId: 1 });
    const events = await directSql<{ state: string; source: string; reason: string | null }>(
      "SELECT state::text, source, reason FROM task_events WHERE task_id = $1 ORDER BY at, id",
      [s.cameBack.victim.taskId],
    );
    expect(events).toEqual([
      { state: "PENDING", source: "PREEMPTOR", reason: "PREEMPTED" },
      { state: "LAUNCHED", source: "PLACEMENT", reason: null },
      { state: "RUNNING", source: "HOST_MANAGER", reason: null },
      { state: "SUCCEEDED", source: "HOST_MANAGER", reason: null },
    ]);
  });

  it("cycle 2: within /ml/training, the waiting priority-9 gang takes the room of a priority-1 task", () => {
    const [, second] = s.cycles;
    expect(second.rows).toHaveLength(1);
    expect(s.intra).toMatchObject({
      kind: "INTRA_POOL",
      level: "/ml/training",
      victim: { jobName: "train-resnet", priority: 1, stateAfter: "PREEMPTING" },
      beneficiary: {
        poolPath: "/ml/training",
        priority: 9,
        task: { jobName: "train-urgent", instanceId: 0 },
      },
      // allocation 16 + gang 8 − entitlement 16
      numbers: { allocation: { cpu: 16 }, entitlement: { cpu: 16 }, excess: { cpu: 8 } },
    });
    expect(s.intra.reason).toMatch(/gang train-urgent\/0 \(priority 9\) waited for 8 cores/);
  });
});
