/**
 * What a launch's outcome writes: LAUNCHED, or back to PENDING (admission
 * admits it again: READY is kept in the leader's memory) with the refusal.
 */
import type { TaskPlacement } from "@peloton/engine";
import { describe, expect, it } from "vitest";
import { launched, type Placed, refused, sentRunOf } from "../src/placement/launch-outcomes.ts";

const at = new Date("2026-11-29T12:00:00Z");

const placed = {
  row: { taskId: "task-1", jobId: "job-1", instanceId: 3, runId: 2 },
  placement: { hostname: "h-1.test", agentId: "agent-1" } as TaskPlacement,
  launch: { taskId: "job-1-3-2" },
} as unknown as Placed;
/** What the launcher keeps of it once the launch went out. */
const sent = sentRunOf(placed);

describe("launch outcomes", () => {
  it("a refused launch goes back to PENDING, host and cluster id cleared, the refusal said", () => {
    const change = refused(sent, { code: "DOES_NOT_FIT", resource: "cpu", needed: 2, free: 1 }, at);
    expect(change).toMatchObject({
      taskId: "task-1",
      expect: { state: "LAUNCHING", runId: 2 },
      state: "PENDING",
      reason: "LAUNCH_REFUSED",
      message:
        "launch on h-1.test did not go out (the host's offer no longer had room: cpu needed 2, free 1); placing again",
      set: { clusterTaskId: null, hostname: null, agentId: null, ports: {} },
    });
    expect(change.events).toEqual([
      expect.objectContaining({
        previousState: "LAUNCHING",
        state: "PENDING",
        clusterTaskId: "job-1-3-2",
        hostname: "h-1.test",
      }),
    ]);
  });

  it("a sent run keeps only the ids and the host its outcome's change names", () => {
    expect(sent).toEqual({
      taskId: "task-1",
      jobId: "job-1",
      instanceId: 3,
      runId: 2,
      clusterTaskId: "job-1-3-2",
      hostname: "h-1.test",
      agentId: "agent-1",
    });
  });

  it("an accepted launch is LAUNCHED, guarded on LAUNCHING", () => {
    expect(launched(sent, at)).toMatchObject({
      expect: { state: "LAUNCHING", runId: 2 },
      state: "LAUNCHED",
      message: "launched on h-1.test",
    });
  });
});
