/**
 * `driveTask`: one guarded change per decision, passing through states when
 * the engine says so, each step an event whose reason is the decision's code.
 */
import type { TaskPolicy } from "@peloton/engine";
import type { TaskRunRow } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import { driveTask } from "../src/jobmgr/goal-state.ts";

const NOW = new Date("2026-11-23T10:00:00Z");
const BATCH: TaskPolicy = { kind: "BATCH", maxFailures: 3, killOnPreempt: false };
const SERVICE: TaskPolicy = { kind: "SERVICE", maxFailures: 0, killOnPreempt: false };

/** A task row: instance 0, run 1, RUNNING on host-1 toward SUCCEEDED unless told otherwise. */
function row(over: Partial<TaskRunRow> = {}): TaskRunRow {
  return {
    taskId: "t-0",
    jobId: "j",
    instanceId: 0,
    runId: 1,
    desiredRun: 1,
    state: "RUNNING",
    goalState: "SUCCEEDED",
    failureCount: 0,
    reason: null,
    clusterTaskId: "j-0-1",
    hostname: "host-1",
    agentId: "agent-1",
    notBefore: null,
    updatedAt: NOW,
    restartRequestedBy: null,
    desiredConfigVersion: 1,
    restartReason: null,
    ...over,
  };
}

const steps = (d: ReturnType<typeof driveTask>) =>
  d.change?.events.map((e) => `${e.runId} ${e.previousState}→${e.state} ${e.reason}`) ?? [];

describe("driveTask", () => {
  const cases: {
    name: string;
    row: Partial<TaskRunRow>;
    policy: TaskPolicy;
    steps: string[];
    final?: string;
    kill?: boolean;
  }[] = [
    { name: "a running batch task is left alone", row: {}, policy: BATCH, steps: [] },
    {
      name: "a failed batch run within its policy is replaced and queued at once",
      row: { state: "FAILED", failureCount: 1, reason: "TASK_FAILED" },
      policy: BATCH,
      steps: ["2 FAILED→INITIALIZED RESTART_AFTER_FAILURE", "2 INITIALIZED→PENDING ENQUEUED"],
      final: "PENDING",
    },
    {
      name: "a failed batch run at its policy's limit stays FAILED",
      row: { state: "FAILED", failureCount: 3, reason: "TASK_FAILED" },
      policy: BATCH,
      steps: [],
    },
    {
      name: "a stop kills a running task",
      row: { goalState: "KILLED" },
      policy: BATCH,
      steps: ["1 RUNNING→KILLING STOP_REQUESTED"],
      final: "KILLING",
      kill: true,
    },
    {
      name: "a stop of a task never launched marks it KILLED, nothing to kill",
      row: { goalState: "KILLED", state: "PENDING", clusterTaskId: null, hostname: null },
      policy: BATCH,
      steps: ["1 PENDING→KILLED NEVER_LAUNCHED"],
      final: "KILLED",
    },
    {
      name: "a delete of an ended run goes to DELETED",
      row: { goalState: "DELETED", state: "KILLED" },
      policy: SERVICE,
      steps: ["1 KILLED→DELETED DELETE_REQUESTED"],
      final: "DELETED",
    },
    {
      name: "a restart of a running service kills the current run",
      row: { goalState: "RUNNING", desiredRun: 2 },
      policy: SERVICE,
      steps: ["1 RUNNING→KILLING RESTART_REQUESTED"],
      kill: true,
    },
    {
      name: "a restart whose run has ended starts the desired run at once",
      row: { goalState: "RUNNING", desiredRun: 2, state: "KILLED" },
      policy: SERVICE,
      steps: ["2 KILLED→INITIALIZED RESTART_REQUESTED", "2 INITIALIZED→PENDING ENQUEUED"],
      final: "PENDING",
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const d = driveTask(row(c.row), c.policy, NOW);
      expect(steps(d)).toEqual(c.steps);
      if (c.final) expect(d.change?.state).toBe(c.final);
      expect(d.kill !== null).toBe(c.kill === true);
    });

  it("an update's restart kills the run for the update, named, as Peloton's KILLED_FOR_UPDATE", () => {
    const d = driveTask(
      row({
        goalState: "RUNNING",
        desiredRun: 2,
        restartReason: "JOB_UPDATE",
        restartRequestedBy: "update 1a2b3c4d (alice)",
      }),
      SERVICE,
      NOW,
    );
    expect(d.kill).not.toBeNull();
    expect(d.change?.reason).toBe("JOB_UPDATE");
    expect(d.change?.message).toBe(
      "stopping the current run so one with the new config can start (update 1a2b3c4d (alice))",
    );
    // An operator's restart stays a restart.
    const restart = driveTask(row({ goalState: "RUNNING", desiredRun: 2 }), SERVICE, NOW);
    expect(restart.change?.reason).toBe("RESTART_REQUESTED");
  });

  it("guards the change with the state and run it decided on, and starts the new run clean", () => {
    const d = driveTask(row({ state: "FAILED", failureCount: 1 }), BATCH, NOW);
    expect(d.change).toMatchObject({
      expect: { state: "FAILED", runId: 1 },
      state: "PENDING",
      set: {
        runId: 2,
        clusterTaskId: null,
        hostname: null,
        previousHost: "host-1",
        queuedAt: NOW,
        failureCount: 1,
      },
    });
    expect(d.change?.message).toBe("waiting to be queued for admission in its pool");
  });

  it("a crashed service waits for its backoff: INITIALIZED with not-before, and a wake-up time", () => {
    const d = driveTask(
      row({ goalState: "RUNNING", state: "FAILED", failureCount: 2 }),
      SERVICE,
      NOW,
    );
    // Backoff for 2 failures: 2 s × 2^(2−1) = 4 s.
    const at = new Date(NOW.getTime() + 4_000);
    expect(steps(d)).toEqual(["2 FAILED→INITIALIZED CRASH_LOOP_BACKOFF"]);
    // Failing, how the last run ended, and when the next one starts: not a quiet wait.
    expect(d.change?.reason).toBe("CRASH_LOOP_BACKOFF");
    expect(d.change?.message).toBe(
      `failing: run 1 FAILED; 2 failures so far; run 2 starts after a 4 s backoff, at ${at.toISOString()}`,
    );
    expect(d.change?.set).toMatchObject({ notBefore: at });
    expect(d.wakeAt).toEqual(at);
    // Once the backoff is over the run is queued.
    const due = driveTask(
      row({ goalState: "RUNNING", state: "INITIALIZED", runId: 2, desiredRun: 1, notBefore: at }),
      SERVICE,
      at,
    );
    expect(steps(due)).toEqual(["2 INITIALIZED→PENDING ENQUEUED"]);
  });
});
