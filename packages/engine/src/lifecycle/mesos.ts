/**
 * Mesos task status updates (mesos-api.md) as task state changes.
 * The mapping is Peloton's `MesosStateToPelotonState` (pkg/common/util) where
 * it has one; the partition-aware states it never asked for are ours.
 */

import {
  isStoppingTaskState,
  isTerminalTaskState,
  type TaskState,
} from "../vocabulary/task-states.ts";
import { canTransition, TASK_TRANSITIONS, type TransitionRefusal } from "./transitions.ts";

export const MESOS_TASK_STATES = [
  "TASK_STAGING",
  "TASK_STARTING",
  "TASK_RUNNING",
  "TASK_KILLING",
  "TASK_FINISHED",
  "TASK_FAILED",
  "TASK_KILLED",
  "TASK_ERROR",
  "TASK_LOST",
  "TASK_DROPPED",
  "TASK_UNREACHABLE",
  "TASK_GONE",
  "TASK_GONE_BY_OPERATOR",
  "TASK_UNKNOWN",
] as const;
export type MesosTaskState = (typeof MESOS_TASK_STATES)[number];

const STATE_OF: Readonly<Record<MesosTaskState, TaskState>> = {
  TASK_STAGING: "LAUNCHED",
  TASK_STARTING: "STARTING",
  TASK_RUNNING: "RUNNING",
  // Peloton keeps RUNNING here; KILLING says what is happening (we asked for TASK_KILLING_STATE).
  TASK_KILLING: "KILLING",
  TASK_FINISHED: "SUCCEEDED",
  TASK_FAILED: "FAILED",
  TASK_KILLED: "KILLED",
  // The task could not be launched as given (e.g. resources beyond the offer).
  TASK_ERROR: "FAILED",
  TASK_LOST: "LOST",
  // Partition-aware answers: the run is gone or cannot be reached; either way
  // it no longer runs for us, and a new run replaces it (a late reappearance is
  // an orphan the host manager kills).
  TASK_DROPPED: "LOST",
  TASK_UNREACHABLE: "LOST",
  TASK_GONE: "LOST",
  TASK_GONE_BY_OPERATOR: "LOST",
  TASK_UNKNOWN: "LOST",
};

/** Stored as the reason of a run killed by a preemption (peloton-semantics.md §4). */
export const PREEMPTED_REASON = "PREEMPTED";

export interface MesosStatus {
  readonly state: MesosTaskState;
  /** Mesos' `reason` (e.g. REASON_CONTAINER_LIMITATION_MEMORY), when it gave one. */
  readonly reason?: string | undefined;
}

/** The task state and the reason to store: Mesos' reason, else the Mesos state itself. */
export function taskStateFromMesos(status: MesosStatus): { state: TaskState; reason: string } {
  return { state: STATE_OF[status.state], reason: status.reason || status.state };
}

export type MesosUpdateOutcome =
  | { readonly kind: "MOVE"; readonly to: TaskState; readonly reason: string }
  | {
      readonly kind: "IGNORE";
      readonly why:
        | "SAME_STATE"
        | "ALREADY_STOPPING"
        | "RUN_ENDED"
        | "EARLIER_STAGE"
        | "REPEATED_LAUNCH";
      readonly state: TaskState;
    }
  | { readonly kind: "REFUSE"; readonly refusal: TransitionRefusal };

/**
 * What an update for the task's current run does to it. Repeats and
 * reconciliation answers change nothing (SAME_STATE); a run we are killing or
 * preempting that reports itself starting, running or being killed keeps
 * that state (ALREADY_STOPPING); an update after the run
 * ended changes nothing (Peloton skips a LOST for a finished task); nor does
 * one for an earlier stage of the run than the one recorded
 * (EARLIER_STAGE: TASK_STARTING for a RUNNING run is an update Mesos sent
 * again because its acknowledgement was lost in a scheduler restart; Mesos
 * delivers at least once). Any end of a PREEMPTING run (killed, or it
 * exited on the kill's signal) is stored with the reason PREEMPTED, which
 * keeps it from counting as a failure and reruns a batch task. An
 * invalid-offers loss for a run its agent already reported starting or
 * running is about a launch sent again, not the run (REPEATED_LAUNCH).
 */
const STILL_UP: ReadonlySet<TaskState> = new Set(["LAUNCHED", "STARTING", "RUNNING", "KILLING"]);

/** The stages of a run on its host, in the order they happen. */
const STAGE: Partial<Record<TaskState, number>> = { LAUNCHED: 1, STARTING: 2, RUNNING: 3 };
const isEarlierStage = (to: TaskState, current: TaskState) =>
  (STAGE[to] ?? 0) > 0 && (STAGE[current] ?? 0) > (STAGE[to] ?? 0);

/**
 * States only the run's agent reports (LAUNCHED the launcher writes itself).
 * A master that takes an ACCEPT twice (its connection cut under a client
 * that sends it again) answers the second with TASK_LOST or TASK_DROPPED,
 * REASON_INVALID_OFFERS, for the tasks the first one launched: believing it
 * would launch a new run beside one that still runs.
 */
const REPORTED_BY_AGENT: ReadonlySet<TaskState> = new Set(["STARTING", "RUNNING"]);
const INVALID_OFFERS = "REASON_INVALID_OFFERS";

export function applyMesosUpdate(current: TaskState, status: MesosStatus): MesosUpdateOutcome {
  const { state: to, reason } = taskStateFromMesos(status);
  if (to === current) return { kind: "IGNORE", why: "SAME_STATE", state: current };
  if (isTerminalTaskState(current) || current === "DELETED")
    return { kind: "IGNORE", why: "RUN_ENDED", state: current };
  // A run we are stopping that reports itself up (the update was in flight
  // before the kill, or answers a reconciliation) is still being stopped: the
  // kill stands and is sent again if no end is reported.
  if (isStoppingTaskState(current) && STILL_UP.has(to))
    return { kind: "IGNORE", why: "ALREADY_STOPPING", state: current };
  if (isEarlierStage(to, current)) return { kind: "IGNORE", why: "EARLIER_STAGE", state: current };
  if (status.reason === INVALID_OFFERS && REPORTED_BY_AGENT.has(current))
    return { kind: "IGNORE", why: "REPEATED_LAUNCH", state: current };
  if (!canTransition(current, to))
    return {
      kind: "REFUSE",
      refusal: {
        code: "ILLEGAL_TRANSITION",
        from: current,
        to,
        allowed: TASK_TRANSITIONS[current],
      },
    };
  // However it ended (killed, or it exited on the signal), a run we were preempting was preempted.
  const preempted = current === "PREEMPTING" && isTerminalTaskState(to);
  return { kind: "MOVE", to, reason: preempted ? PREEMPTED_REASON : reason };
}
