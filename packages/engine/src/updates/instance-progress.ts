/**
 * Where one instance of an update stands (Peloton's GetUpdateProgress for one
 * instance): done, failed, or still moving, from its row alone.
 */
import type { HealthState } from "../vocabulary/health-states.ts";
import type { GoalState, TaskState } from "../vocabulary/task-states.ts";
import { isTerminalTaskState } from "../vocabulary/task-states.ts";

/** An instance's row as the planner reads it; `exists: false` for an instance with no task row. */
export interface UpdateInstanceFacts {
  exists: boolean;
  configVersion: number;
  desiredConfigVersion: number;
  state: TaskState;
  goalState: GoalState;
  runId: number;
  desiredRun: number;
  /** The current run's health; null before it ran. */
  health: HealthState | null;
  /** Failures since the instance was moved to this version (reset when moved). */
  failureCount: number;
}

/** What the update does to the instance: run it on the target, or stop it (removed). */
export type UpdateRole = "run" | "remove";

export type InstanceProgress = "DONE" | "FAILED" | "MOVING";

export function instanceProgress(
  facts: UpdateInstanceFacts | undefined,
  role: UpdateRole,
  target: number,
  maxInstanceAttempts: number,
): InstanceProgress {
  if (role === "remove")
    return !facts?.exists || isTerminalTaskState(facts.state) ? "DONE" : "MOVING";
  if (!facts?.exists) return "MOVING";
  const onTarget = facts.configVersion === target && facts.desiredConfigVersion === target;
  if (!onTarget || facts.runId < facts.desiredRun) return "MOVING";
  if (maxInstanceAttempts > 0 && facts.failureCount >= maxInstanceAttempts) return "FAILED";
  // An instance meant to stay stopped is done once its run ended.
  if (facts.goalState === "KILLED" || facts.goalState === "DELETED")
    return isTerminalTaskState(facts.state) ? "DONE" : "MOVING";
  if (facts.state !== "RUNNING") return "MOVING";
  // With a health check, only a HEALTHY run counts (DISABLED: it has none).
  // (null: no health recorded for the run, as for one without a check).
  return facts.health === "HEALTH_UNKNOWN" || facts.health === "UNHEALTHY" ? "MOVING" : "DONE";
}
