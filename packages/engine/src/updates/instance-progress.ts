/**
 * Where one instance of an update stands (Peloton's GetUpdateProgress for one
 * instance): done, failed, or still moving, from its row alone.
 */
import type { HealthState } from "../vocabulary/health-states.ts";
import type { GoalState, TaskState } from "../vocabulary/task-states.ts";
import { isFinishedTaskState } from "../vocabulary/task-states.ts";

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
  /** When the current run started running (null: it has not). */
  startedAt: Date | null;
}

/**
 * How long a run without a health check must have been RUNNING to count as
 * done (Aurora's watch_secs): a new version that exits at once is seen failing
 * instead of being counted done in the moment it was RUNNING.
 */
export interface UpdateWatch {
  now: Date;
  watchMs: number;
}

/** What the update does to the instance: run it on the target, or stop it (removed). */
export type UpdateRole = "run" | "remove";

export type InstanceProgress = "DONE" | "FAILED" | "MOVING";

export function instanceProgress(
  facts: UpdateInstanceFacts | undefined,
  role: UpdateRole,
  target: number,
  maxInstanceAttempts: number,
  watch: UpdateWatch = { now: new Date(0), watchMs: 0 },
): InstanceProgress {
  if (role === "remove")
    return !facts?.exists || isFinishedTaskState(facts.state) ? "DONE" : "MOVING";
  if (!facts?.exists) return "MOVING";
  const onTarget = facts.configVersion === target && facts.desiredConfigVersion === target;
  if (!onTarget || facts.runId < facts.desiredRun) return "MOVING";
  if (maxInstanceAttempts > 0 && facts.failureCount >= maxInstanceAttempts) return "FAILED";
  // An instance meant to stay stopped is done once its run ended.
  if (facts.goalState === "KILLED" || facts.goalState === "DELETED")
    return isFinishedTaskState(facts.state) ? "DONE" : "MOVING";
  if (facts.state !== "RUNNING") return "MOVING";
  // With a health check, only a HEALTHY run counts.
  if (facts.health === "HEALTHY") return "DONE";
  if (facts.health === "HEALTH_UNKNOWN" || facts.health === "UNHEALTHY") return "MOVING";
  // Without one (DISABLED, or none recorded): RUNNING for the watch period.
  const since = facts.startedAt?.getTime() ?? watch.now.getTime();
  return watch.now.getTime() - since >= watch.watchMs ? "DONE" : "MOVING";
}

/**
 * When an instance still in its watch period counts as done (its run started
 * plus the watch), so the workflow can look again right then; null when it
 * is not waiting on the watch.
 */
export function watchEndsAt(
  facts: UpdateInstanceFacts | undefined,
  target: number,
  watch: UpdateWatch,
): Date | null {
  if (!facts?.exists || facts.state !== "RUNNING" || facts.startedAt === null) return null;
  if (facts.configVersion !== target || facts.runId < facts.desiredRun) return null;
  if (facts.health !== null && facts.health !== "DISABLED") return null;
  const at = facts.startedAt.getTime() + watch.watchMs;
  return at > watch.now.getTime() ? new Date(at) : null;
}
