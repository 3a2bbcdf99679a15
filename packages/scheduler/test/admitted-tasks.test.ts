/**
 * READY in the leader's memory: what placement takes, and what admission
 * must leave alone and count as held while placement has it.
 */
import type { PendingTaskRow, PoolHeld } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import { type AdmittedTask, AdmittedTasks, withHeldInHand } from "../src/resmgr/admitted-tasks.ts";

const at = new Date("2026-11-29T12:00:00Z");

function task(taskId: string, more: Partial<PendingTaskRow> = {}, cpu = 1): AdmittedTask {
  return {
    row: {
      taskId,
      jobId: "job-a",
      instanceId: Number(taskId.replace(/\D/g, "")) || 0,
      runId: 1,
      poolId: "pool-1",
      priority: 0,
      preemptible: true,
      revocable: false,
      controller: false,
      resources: { cpu, gpu: 0, memory: 64, disk: 0 },
      queuedAt: at,
      reason: null,
      message: null,
      ...more,
    },
    admittedAt: at,
    message: "admitted in pool /a (its pending queue)",
  };
}

const ids = (tasks: readonly AdmittedTask[]) => tasks.map((t) => t.row.taskId);

describe("AdmittedTasks", () => {
  it("placement takes higher priority first, then by job and instance (a gang's members together)", () => {
    const stage = new AdmittedTasks();
    stage.admit([
      task("t2", { jobId: "job-b", instanceId: 0 }),
      task("t1", { jobId: "job-a", instanceId: 1 }),
      task("t0", { jobId: "job-a", instanceId: 0 }),
      task("t9", { jobId: "job-z", priority: 5 }),
    ]);
    expect(ids(stage.take(3))).toEqual(["t9", "t0", "t1"]);
    expect(stage.waitingCount).toBe(1);
    expect(ids(stage.take(10))).toEqual(["t2"]);
    expect(stage.waitingCount).toBe(0);
  });

  it("a round's admissions replace the last round's that placement did not take", () => {
    const stage = new AdmittedTasks();
    stage.admit([task("t0"), task("t1")]);
    stage.admit([task("t1")]);
    expect(ids(stage.take(10))).toEqual(["t1"]);
  });

  it("admission leaves alone what placement holds, and what it gave back since the round began", () => {
    const stage = new AdmittedTasks();
    stage.admit([task("t0"), task("t1"), task("t2")]);
    stage.take(2);
    const inHand = () => ["t0", "t1", "t2"].filter((id) => stage.isInHand(id));
    expect(inHand()).toEqual(["t0", "t1"]);
    // Written LAUNCHING (or left unplaced) after admission's reads may have begun.
    stage.done(["t0"]);
    expect(inHand()).toEqual(["t0", "t1"]);
    expect(ids(stage.inHand()).sort()).toEqual(["t0", "t1"]);
    // The next round's reads see t0's row as it is now.
    stage.beginRound();
    expect(inHand()).toEqual(["t1"]);
    // An id placement never took changes nothing.
    stage.done(["t2", "unknown"]);
    expect(inHand()).toEqual(["t1"]);
    expect(ids(stage.admittedNow())).toEqual(["t2", "t1"]);
  });
});

describe("withHeldInHand", () => {
  const zero = { cpu: 0, gpu: 0, memory: 0, disk: 0 };
  const held: PoolHeld[] = [
    {
      poolId: "pool-1",
      nonRevocable: { cpu: 4, gpu: 0, memory: 256, disk: 0 },
      slack: zero,
      controller: zero,
      nonPreemptible: { cpu: 1, gpu: 0, memory: 64, disk: 0 },
    },
  ];

  it("adds the tasks in placement's hands the way the database counts admitted rows", () => {
    const out = withHeldInHand(held, [
      task("t0", {}, 2),
      task("t1", { preemptible: false, controller: true }, 1),
      task("t2", { revocable: true, poolId: "pool-2" }, 3),
    ]);
    expect(out).toEqual([
      {
        poolId: "pool-1",
        nonRevocable: { cpu: 7, gpu: 0, memory: 384, disk: 0 },
        slack: zero,
        controller: { cpu: 1, gpu: 0, memory: 64, disk: 0 },
        nonPreemptible: { cpu: 2, gpu: 0, memory: 128, disk: 0 },
      },
      {
        poolId: "pool-2",
        nonRevocable: zero,
        slack: { cpu: 3, gpu: 0, memory: 64, disk: 0 },
        controller: zero,
        nonPreemptible: zero,
      },
    ]);
    // What was read is left as it was.
    expect(held[0]!.nonRevocable.cpu).toBe(4);
  });
});
