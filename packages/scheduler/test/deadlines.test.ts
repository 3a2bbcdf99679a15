import type { TaskRunRow } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import { type DeadlineRun, deadlineKill } from "../src/jobmgr/deadlines.ts";

const started = new Date("2026-01-01T00:00:00Z");
const run = (over: Partial<DeadlineRun> = {}): DeadlineRun => ({
  ...({
    taskId: "t1",
    jobId: "j1",
    instanceId: 0,
    runId: 2,
    desiredRun: 2,
    state: "RUNNING",
    goalState: "SUCCEEDED",
    failureCount: 0,
    reason: null,
    clusterTaskId: "j1-0-2",
    hostname: "a1.test",
    agentId: "agent-1",
    notBefore: null,
    updatedAt: started,
    restartRequestedBy: null,
    desiredConfigVersion: 1,
  } satisfies TaskRunRow),
  maxRunningTime: 30,
  startedAt: started,
  ...over,
});

describe("deadlineKill", () => {
  it("gives a run past its deadline the goal KILLED, KILLING with Peloton's reason, and its kill", () => {
    const now = new Date(started.getTime() + 30_000);
    const d = deadlineKill(run(), now)!;
    expect(d.change).toMatchObject({
      expect: { state: "RUNNING", runId: 2 },
      state: "KILLING",
      reason: "DEADLINE_TIMEOUT_EXCEEDED",
      set: { goalState: "KILLED" },
    });
    expect(d.change.events).toEqual([
      expect.objectContaining({
        previousState: "RUNNING",
        state: "KILLING",
        source: "JOB_MANAGER",
        reason: "DEADLINE_TIMEOUT_EXCEEDED",
        message:
          "killed: ran longer than the job's sla.maxRunningTime of 30 s (deadline exceeded; not retried)",
        at: now,
      }),
    ]);
    expect(d.kill).toMatchObject({ clusterTaskId: "j1-0-2", agentId: "agent-1" });
  });

  it("leaves a run within its deadline, or not running, alone", () => {
    expect(deadlineKill(run(), new Date(started.getTime() + 29_999))).toBeNull();
    expect(
      deadlineKill(run({ state: "KILLING" }), new Date(started.getTime() + 60_000)),
    ).toBeNull();
  });
});
