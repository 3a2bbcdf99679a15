/** A run's health as status updates move it (run-health.ts, pure). */
import type { TaskRunRow } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import type { TaskStatusUpdate } from "../src/hostmgr/host-adapter.ts";
import { startOf } from "../src/jobmgr/goal-state.ts";
import { withHealth } from "../src/jobmgr/run-health.ts";

const AT = new Date("2026-11-25T21:00:00Z");
const row = (over: Partial<TaskRunRow> = {}): TaskRunRow => ({
  taskId: "t",
  jobId: "j",
  instanceId: 0,
  runId: 2,
  desiredRun: 2,
  state: "RUNNING",
  goalState: "RUNNING",
  failureCount: 0,
  reason: null,
  clusterTaskId: "j-0-2",
  hostname: "a1",
  agentId: "ag1",
  notBefore: null,
  updatedAt: AT,
  restartRequestedBy: null,
  desiredConfigVersion: 1,
  ...over,
});
const update = (healthy: boolean | null): TaskStatusUpdate => ({
  taskId: "j-0-2",
  state: "RUNNING",
  clusterState: "TASK_RUNNING",
  reason: healthy === null ? null : "REASON_TASK_HEALTH_CHECK_STATUS_UPDATED",
  message: null,
  hostname: "a1",
  hostId: "ag1",
  at: AT,
  reconciliation: false,
  healthy,
});
const checked = {
  healthCheck: { enabled: true, type: "COMMAND" as const, commandCheck: { command: "true" } },
};

describe("a run's health", () => {
  it("starts when the run reaches RUNNING: HEALTH_UNKNOWN with an enabled check, DISABLED without", () => {
    const r = row({ state: "STARTING", health: null });
    const running = { ...startOf(r), state: "RUNNING" as const };
    expect(withHealth(running, r, update(null), "STARTING", checked).set).toMatchObject({
      health: "HEALTH_UNKNOWN",
      healthRunId: 2,
      healthChangedAt: AT,
    });
    expect(withHealth(running, r, update(null), "STARTING", {}).set).toMatchObject({
      health: "DISABLED",
      healthRunId: 2,
    });
  });

  it("moves on a changed result with one event, and not on the same result again", () => {
    const r = row({ health: "HEALTH_UNKNOWN" });
    const healthy = withHealth(startOf(r), r, update(true), "RUNNING", checked);
    expect(healthy.set).toMatchObject({ health: "HEALTHY", healthRunId: 2 });
    expect(healthy.events).toEqual([
      expect.objectContaining({
        previousState: "RUNNING",
        state: "RUNNING",
        health: "HEALTHY",
        reason: "REASON_TASK_HEALTH_CHECK_STATUS_UPDATED",
        message: "HEALTH_UNKNOWN → HEALTHY: the health check passed",
      }),
    ]);
    // Within one batch, the health set so far counts: a second `true` changes nothing.
    expect(withHealth(healthy, r, update(true), "RUNNING", checked)).toBe(healthy);
    const unhealthy = withHealth(healthy, r, update(false), "RUNNING", checked);
    expect(unhealthy.set.health).toBe("UNHEALTHY");
    expect(unhealthy.events.map((e) => e.health)).toEqual(["HEALTHY", "UNHEALTHY"]);
  });

  it("a DISABLED run ignores results, and an update without `healthy` leaves health alone", () => {
    const r = row({ health: "DISABLED" });
    const s = startOf(r);
    expect(withHealth(s, r, update(true), "RUNNING", {})).toBe(s);
    const h = row({ health: "HEALTHY" });
    const t = startOf(h);
    expect(withHealth(t, h, update(null), "RUNNING", checked)).toBe(t);
  });
});
