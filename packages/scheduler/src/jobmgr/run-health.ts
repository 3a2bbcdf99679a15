/**
 * A run's health as status updates move it (pure; health is orthogonal to
 * the task's state): set to its initial value (DISABLED without an enabled
 * health check, else HEALTH_UNKNOWN) when the run reaches RUNNING, then to
 * HEALTHY / UNHEALTHY by the cluster's `healthy` reports. A change of
 * HEALTHY/UNHEALTHY writes the columns and a task event saying so.
 */
import {
  type HealthState,
  healthAfter,
  initialHealthOf,
  isTerminalTaskState,
  type TaskConfig,
} from "@peloton/engine";
import type { TaskRunRow } from "@peloton/storage";
import type { TaskStatusUpdate } from "../hostmgr/host-adapter.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import type { DriveStart } from "./goal-state.ts";

/** The health the run has so far in this batch: what was set, else the row's. */
export function healthSoFar(start: DriveStart, row: TaskRunRow): HealthState | null {
  if (start.set.health !== undefined && start.set.healthRunId === start.runId)
    return start.set.health;
  return start.runId === row.runId ? (row.health ?? null) : null;
}

/**
 * `start` after update `u`, which moved the run from `from` (its state
 * before the update). `task` is the instance's config (undefined when the
 * job's config is not at hand: the run's health is left as it is).
 */
export function withHealth(
  given: DriveStart,
  row: TaskRunRow,
  u: TaskStatusUpdate,
  from: DriveStart["state"],
  task: TaskConfig | undefined,
): DriveStart {
  let start = given;
  let current = healthSoFar(start, row);
  let set = start.set;
  if (start.state === "RUNNING" && from !== "RUNNING" && task !== undefined && current === null) {
    current = initialHealthOf(task);
    set = {
      ...set,
      health: current,
      healthRunId: start.runId,
      healthChangedAt: u.at,
      healthMessage: null,
    };
  }
  // Mesos gives a run its health check killed no reason, only `healthy: false`: say it.
  if (isTerminalTaskState(start.state) && !isTerminalTaskState(from) && u.healthy === false) {
    const why = `ended unhealthy (its health check failed): ${start.message ?? u.clusterState}`;
    const events = start.events.map((e, i) =>
      i === start.events.length - 1 && e.state === start.state ? { ...e, message: why } : e,
    );
    start = { ...start, message: why, events };
  }
  const next = healthAfter(current, u.healthy);
  if (next === undefined) return set === start.set ? start : { ...start, set };
  const message =
    next === "HEALTHY"
      ? "the health check passed"
      : `the health check failed${u.message ? `: ${u.message}` : ""}`;
  return {
    ...start,
    set: {
      ...set,
      health: next,
      healthRunId: start.runId,
      healthChangedAt: u.at,
      healthMessage: message,
    },
    events: [
      ...start.events,
      {
        runId: start.runId,
        clusterTaskId: u.taskId,
        previousState: start.state,
        state: start.state,
        source: EVENT_SOURCES.hostManager,
        reason: u.reason ?? "REASON_TASK_HEALTH_CHECK_STATUS_UPDATED",
        message: `${current ?? "HEALTH_UNKNOWN"} → ${next}: ${message}`,
        hostname: u.hostname ?? row.hostname,
        agentId: u.hostId ?? row.agentId,
        at: u.at,
        health: next,
      },
    ],
  };
}
