/**
 * Driving one task toward its goal (Peloton's goal-state engine for tasks),
 * pure: the engine's `nextTaskAction` is asked again after each step it
 * takes on the row, until it says to wait, so one decision can pass through
 * several states (a failed run replaced by a new one that is queued at once:
 * FAILED → INITIALIZED (run n+1) → PENDING). The result is one guarded task
 * change with an event per step, and the kill to send when the last step
 * was one. Each event's reason is the decision's code, its message the
 * engine's sentence for it.
 */
import {
  CRASH_LOOP_REASON,
  canTransition,
  describeCrashLoop,
  describeTaskDecision,
  nextTaskAction,
  type RestartBackoff,
  restartKillOf,
  type TaskDecision,
  type TaskPolicy,
  type TaskState,
} from "@peloton/engine";
import type { TaskChange, TaskColumnWrites, TaskEventWrite, TaskRunRow } from "@peloton/storage";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import type { KillOrder } from "../taskwriter/kill-order.ts";
import { NEW_RUN_COLUMNS } from "./new-tasks.ts";

export interface Drive {
  change: TaskChange | null;
  kill: KillOrder | null;
  /** The task waits for a backoff: decide again then. */
  wakeAt: Date | null;
}

/**
 * Where the row stands while the steps are applied. A caller that already
 * moved the row (a status update ending the run) starts from there, so the
 * move and the decisions after it make one change.
 */
export interface DriveStart {
  state: TaskState;
  runId: number;
  failureCount: number;
  reason: string | null;
  message: string | null;
  notBefore: Date | null;
  set: TaskColumnWrites;
  events: TaskEventWrite[];
}

const MAX_STEPS = 6;

/** The row as it is: nothing moved yet. */
export function startOf(row: TaskRunRow): DriveStart {
  return {
    state: row.state,
    runId: row.runId,
    failureCount: row.failureCount,
    reason: row.reason,
    message: null,
    notBefore: row.notBefore,
    set: {},
    events: [],
  };
}

/** Why a task that would be queued now stays INITIALIZED (sla.maximumRunningInstances). */
export interface QueueHold {
  reason: string;
  message: string;
}

export function driveTask(
  row: TaskRunRow,
  policy: TaskPolicy,
  now: Date,
  opts: { backoff?: RestartBackoff; source?: string; start?: DriveStart; hold?: QueueHold } = {},
): Drive {
  const source = opts.source ?? EVENT_SOURCES.jobManager;
  const start = opts.start ?? startOf(row);
  const w: DriveStart = { ...start, set: { ...start.set }, events: [...start.events] };
  let kill: KillOrder | null = null;
  let wakeAt: Date | null = null;
  let held = false;
  for (let step = 0; step < MAX_STEPS; step++) {
    const decision = nextTaskAction(
      {
        state: w.state,
        goalState: row.goalState,
        run: w.runId,
        desiredRun: row.desiredRun,
        failureCount: w.failureCount,
        reason: w.reason ?? undefined,
      },
      policy,
      opts.backoff,
    );
    const to = targetOf(decision, w, now);
    if (to === null) break;
    if (to === "PENDING" && opts.hold) {
      // Held back before admission: it stays INITIALIZED and says why.
      // Written once: a task already held for this reason is left as it is.
      held = w.reason !== opts.hold.reason;
      w.reason = opts.hold.reason;
      w.message = opts.hold.message;
      break;
    }
    if (to === "WAIT") {
      wakeAt = w.notBefore;
      break;
    }
    if (!canTransition(w.state, to)) break;
    apply(w, row, decision, to, now, source);
    if (decision.action === "KILL") {
      if (row.clusterTaskId !== null)
        kill = {
          taskId: row.taskId,
          jobId: row.jobId,
          instanceId: row.instanceId,
          clusterTaskId: row.clusterTaskId,
          agentId: row.agentId,
        };
      break;
    }
  }
  // No step taken: nothing to write, unless a hold changed why the task waits.
  if (w.events.length === 0 && !held) return { change: null, kill: null, wakeAt };
  return {
    change: {
      taskId: row.taskId,
      jobId: row.jobId,
      instanceId: row.instanceId,
      expect: { state: row.state, runId: row.runId },
      state: w.state,
      reason: w.reason,
      message: w.message,
      set: { ...w.set, failureCount: w.failureCount },
      events: w.events,
    },
    kill,
    wakeAt,
  };
}

/** The state a decision moves the task to; WAIT for a backoff; null for nothing to do now. */
function targetOf(d: TaskDecision, w: DriveStart, now: Date): TaskState | "WAIT" | null {
  switch (d.action) {
    case "ENQUEUE":
      return w.notBefore !== null && w.notBefore > now ? "WAIT" : "PENDING";
    case "KILL":
      return "KILLING";
    case "START_NEW_RUN":
      return "INITIALIZED";
    case "MARK_TERMINAL":
      return d.state;
    case "NONE":
      return null;
  }
}

const REASON_OF: Record<TaskDecision["action"], (d: TaskDecision) => string> = {
  ENQUEUE: () => "ENQUEUED",
  KILL: (d) => d.why,
  START_NEW_RUN: (d) => d.why,
  MARK_TERMINAL: (d) => d.why,
  NONE: (d) => d.why,
};

function apply(
  w: DriveStart,
  row: TaskRunRow,
  d: TaskDecision,
  to: TaskState,
  now: Date,
  source: string,
): void {
  const previousState = w.state;
  // A restart's kill keeps why it was asked for (an operator, an update's new
  // config, host maintenance) and names who asked.
  const restartKill =
    d.action === "KILL" && d.why === "RESTART_REQUESTED"
      ? restartKillOf(row.restartReason, row.restartRequestedBy)
      : null;
  let reason = restartKill?.reason ?? REASON_OF[d.action](d);
  let message = restartKill?.message ?? describeTaskDecision(d);
  if (d.action === "START_NEW_RUN") {
    const delayed = d.delayMs > 0 ? new Date(now.getTime() + d.delayMs) : null;
    // A service failing again waits out a backoff: it says it is failing, how, and until when.
    if (d.why === "SERVICE_ENDED" && delayed !== null) {
      reason = CRASH_LOOP_REASON;
      message = describeCrashLoop({
        run: w.runId,
        ended: w.state,
        reason: w.reason,
        message: w.message,
        failureCount: d.failureCount,
        retryAt: delayed,
        delayMs: d.delayMs,
      });
    }
    w.runId = d.run;
    w.failureCount = d.failureCount;
    w.notBefore = delayed;
    w.set = {
      ...w.set,
      ...NEW_RUN_COLUMNS,
      runId: d.run,
      notBefore: delayed,
      // The new run is launched with the config the instance should run (an update moves it).
      configVersion: row.desiredConfigVersion,
      // The ended run's host, for placement to prefer (sticky); kept when it never had one.
      ...(row.hostname !== null ? { previousHost: row.hostname } : {}),
    };
  }
  if (to === "PENDING") w.set = { ...w.set, queuedAt: now, notBefore: null };
  w.state = to;
  w.reason = reason;
  w.message = message;
  w.events.push({
    runId: w.runId,
    clusterTaskId: d.action === "KILL" ? row.clusterTaskId : null,
    previousState,
    state: to,
    source,
    reason,
    message,
    hostname: d.action === "KILL" ? row.hostname : null,
    agentId: d.action === "KILL" ? row.agentId : null,
    at: now,
  });
}
