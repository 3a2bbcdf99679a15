/**
 * The walk down a ranked list (peloton-semantics.md §4): take tasks until the
 * excess is covered, skipping a task that frees none of the kinds still in
 * excess (killing it would help nobody) and one whose job's SLA forbids it.
 */
import { EPSILON, type Resources, subtractAmount } from "../resources/resources.ts";
import type { AvailabilityBudget } from "./availability.ts";
import type { PreemptionTask } from "./input.ts";
import type { RankedList } from "./rank.ts";

export interface CoverStep {
  readonly task: PreemptionTask;
  /** 1-based position in the ranked list. */
  readonly rank: number;
  /** What was still to free when the task was taken. */
  readonly remaining: Resources;
}

export interface Cover {
  readonly chosen: readonly CoverStep[];
  /** What is still uncovered after the walk (zero when covered). */
  readonly remaining: Resources;
  /** Tasks that would have helped but whose job's SLA forbade it. */
  readonly skippedForSla: readonly PreemptionTask[];
}

/** Amounts are in excess above ε (`subtractAmount` leaves 0 or at least ε). */
const inExcess = (n: number) => n >= EPSILON;

/** The task frees some kind that is still in excess. */
export function freesNeeded(task: PreemptionTask, remaining: Resources): boolean {
  const r = task.resources;
  return (
    (inExcess(remaining.cpu) && inExcess(r.cpu)) ||
    (inExcess(remaining.gpu) && inExcess(r.gpu)) ||
    (inExcess(remaining.memory) && inExcess(r.memory)) ||
    (inExcess(remaining.disk) && inExcess(r.disk))
  );
}

const covered = (r: Resources) =>
  !inExcess(r.cpu) && !inExcess(r.gpu) && !inExcess(r.memory) && !inExcess(r.disk);

export interface CoverOptions {
  /** Only these tasks may be taken (intra-pool: lower priority than the gang). */
  readonly accept?: (t: PreemptionTask) => boolean;
  /** Already chosen this cycle. */
  readonly exclude?: ReadonlySet<PreemptionTask>;
}

export function coverExcess(
  ranked: RankedList,
  excess: Resources,
  budget: AvailabilityBudget,
  opts: CoverOptions = {},
): Cover {
  const chosen: CoverStep[] = [];
  const skippedForSla: PreemptionTask[] = [];
  let remaining = excess;
  if (covered(remaining)) return { chosen, remaining, skippedForSla };
  ranked.walk((task, rank) => {
    if (opts.exclude?.has(task) || !freesNeeded(task, remaining)) return true;
    if (opts.accept && !opts.accept(task)) return true;
    if (!budget.allows(task)) {
      skippedForSla.push(task);
      return true;
    }
    budget.take(task);
    chosen.push({ task, rank, remaining });
    const r = task.resources;
    remaining = {
      cpu: subtractAmount(remaining.cpu, r.cpu),
      gpu: subtractAmount(remaining.gpu, r.gpu),
      memory: subtractAmount(remaining.memory, r.memory),
      disk: subtractAmount(remaining.disk, r.disk),
    };
    return !covered(remaining);
  });
  return { chosen, remaining, skippedForSla };
}
