/**
 * One step of an update (Peloton's UpdateRun, pure): from the update's
 * options, state and instance sets and the rows of its instances in flight,
 * which instances are now done or failed, which start next, the update's next
 * state and why. The loop runs it every tick from stored rows only, so a new
 * leader continues exactly where the old one stopped.
 *
 * The window slides as Peloton's does: as soon as an instance in flight is
 * done (or failed) the next one starts, so no more than the batch size are
 * ever moving at once.
 */
import type { UpdateState } from "../vocabulary/job-states.ts";
import { instanceProgress, type UpdateInstanceFacts } from "./instance-progress.ts";
import { effectiveBatchSize, type UpdateOptions } from "./vocabulary.ts";

export interface UpdatePlanInput {
  state: UpdateState;
  options: UpdateOptions;
  /** The version the instances are moving to (the old one when rolling back). */
  target: number;
  /** The instances the update adds, changes and removes, in the order they are taken. */
  added: readonly number[];
  updated: readonly number[];
  removed: readonly number[];
  done: readonly number[];
  failed: readonly number[];
  current: readonly number[];
  /** The rows of the instances in `current` (absent: no row yet). */
  facts: ReadonlyMap<number, UpdateInstanceFacts>;
  /** What batchPercentage is of: the larger of the job's instance counts before and after. */
  instanceCount: number;
}

export type UpdateStepReason =
  | "STARTED"
  | "STARTED_PAUSED"
  | "BATCH_STARTED"
  | "PROGRESS"
  | "WAITING"
  | "PAUSED"
  | "ALL_DONE"
  | "TOO_MANY_FAILURES"
  | "ROLLBACK_ON_FAILURE";

export interface UpdatePlan {
  state: UpdateState;
  reason: UpdateStepReason;
  /** Instances that start moving now, by what the update does to them. */
  start: { added: number[]; updated: number[]; removed: number[] };
  done: number[];
  failed: number[];
  current: number[];
  /** Anything to write (sets or state moved). */
  changed: boolean;
}

const FINISHED_FORWARD: UpdateState = "SUCCEEDED";
const FINISHED_BACKWARD: UpdateState = "ROLLED_BACK";

export function planUpdateStep(input: UpdatePlanInput): UpdatePlan {
  const same = (reason: UpdateStepReason): UpdatePlan => ({
    state: input.state,
    reason,
    start: { added: [], updated: [], removed: [] },
    done: [...input.done],
    failed: [...input.failed],
    current: [...input.current],
    changed: false,
  });
  if (input.state === "PAUSED") return same("PAUSED");
  if (!["INITIALIZED", "ROLLING_FORWARD", "ROLLING_BACKWARD"].includes(input.state))
    return same("WAITING");
  if (input.state === "INITIALIZED" && input.options.startPaused)
    return { ...same("STARTED_PAUSED"), state: "PAUSED", changed: true };

  const backward = input.state === "ROLLING_BACKWARD";
  const removedSet = new Set(input.removed);
  const done = new Set(input.done);
  const failed = new Set(input.failed);
  const inFlight: number[] = [];
  let moved = input.state === "INITIALIZED";
  for (const i of input.current) {
    const progress = instanceProgress(
      input.facts.get(i),
      removedSet.has(i) ? "remove" : "run",
      input.target,
      input.options.maxInstanceAttempts,
    );
    if (progress === "DONE") done.add(i);
    else if (progress === "FAILED") failed.add(i);
    else inFlight.push(i);
    if (progress !== "MOVING") moved = true;
  }

  const limit = input.options.maxFailureInstances;
  // Peloton: the update fails once the failed instances reach maxFailureInstances (0: no limit).
  if (limit > 0 && failed.size >= limit) {
    const rollback = input.options.rollbackOnFailure && !backward;
    return {
      state: rollback ? "ROLLING_BACKWARD" : "FAILED",
      reason: rollback ? "ROLLBACK_ON_FAILURE" : "TOO_MANY_FAILURES",
      start: { added: [], updated: [], removed: [] },
      done: sorted(done),
      failed: sorted(failed),
      current: inFlight,
      changed: true,
    };
  }

  const batch = effectiveBatchSize(input.options, input.instanceCount);
  const taken = new Set([...done, ...failed, ...inFlight]);
  const start = { added: [] as number[], updated: [] as number[], removed: [] as number[] };
  let room = batch - inFlight.length;
  for (const [role, list] of [
    ["added", input.added],
    ["updated", input.updated],
    ["removed", input.removed],
  ] as const) {
    for (const i of list) {
      if (room <= 0) break;
      if (taken.has(i)) continue;
      start[role].push(i);
      taken.add(i);
      room--;
    }
  }
  const started = start.added.length + start.updated.length + start.removed.length;
  const current = [...inFlight, ...start.added, ...start.updated, ...start.removed];
  if (current.length === 0)
    return {
      state: backward ? FINISHED_BACKWARD : FINISHED_FORWARD,
      reason: "ALL_DONE",
      start,
      done: sorted(done),
      failed: sorted(failed),
      current: [],
      changed: true,
    };
  const next: UpdateState = input.state === "INITIALIZED" ? "ROLLING_FORWARD" : input.state;
  return {
    state: next,
    reason:
      input.state === "INITIALIZED"
        ? "STARTED"
        : started > 0
          ? "BATCH_STARTED"
          : moved
            ? "PROGRESS"
            : "WAITING",
    start,
    done: sorted(done),
    failed: sorted(failed),
    current,
    changed: moved || started > 0,
  };
}

function sorted(set: ReadonlySet<number>): number[] {
  return [...set].sort((a, b) => a - b);
}
