/**
 * The victim order (peloton-semantics.md §4; Peloton's
 * `statePriorityRuntimeRanker`), for inter- and intra-pool preemption alike:
 *
 * 1. only preemptible tasks in READY, PLACING or RUNNING (PENDING tasks hold
 *    nothing; tasks between placement and running are left to finish moving);
 * 2. revocable tasks first (they answer for the slack excess), then
 *    non-revocable ones (for the non-slack excess) — two separate lists;
 * 3. within a list by state: READY, then PLACING, then RUNNING (taking back
 *    what has not started costs least);
 * 4. then lowest priority first;
 * 5. then most recently started first (least work lost; a task that never
 *    started counts as the most recent);
 * 6. then by task id, so equal tasks always come in the same order.
 *
 * A list is sorted only as far as a walk reads it (`LazySorted`): a pool whose
 * excess is covered by a few READY tasks never sorts the rest.
 */
import type { PreemptionTask } from "./input.ts";
import { LazySorted } from "./lazy-sorted.ts";

export const CANDIDATE_STATES = ["READY", "PLACING", "RUNNING"] as const;

/** Position in `CANDIDATE_STATES`, or -1 when the state holds nothing to take. */
export function candidateStateRank(state: string): number {
  return state === "READY" ? 0 : state === "PLACING" ? 1 : state === "RUNNING" ? 2 : -1;
}

export function isCandidate(t: PreemptionTask): boolean {
  return t.preemptible && candidateStateRank(t.state) >= 0;
}

/** Rules 4–6, for tasks in the same state. */
function compareWithinState(a: PreemptionTask, b: PreemptionTask): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  const sa = a.startedAt ?? Infinity;
  const sb = b.startedAt ?? Infinity;
  if (sa !== sb) return sa > sb ? -1 : 1;
  return a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0;
}

/** Orders one list (rules 3–6). */
export function compareCandidates(a: PreemptionTask, b: PreemptionTask): number {
  return candidateStateRank(a.state) - candidateStateRank(b.state) || compareWithinState(a, b);
}

/** One list of candidates (revocable or not) in victim order, sorted as it is walked. */
export class RankedList {
  private readonly byState: PreemptionTask[][] = [[], [], []];
  private lists: LazySorted<PreemptionTask>[] | null = null;

  add(t: PreemptionTask): void {
    this.byState[candidateStateRank(t.state)]!.push(t);
  }

  /** Visits the candidates in victim order (rank from 1) until `visit` returns false. */
  walk(visit: (task: PreemptionTask, rank: number) => boolean): void {
    this.lists ??= this.byState.map((tasks) => new LazySorted(tasks, compareWithinState));
    let rank = 0;
    for (const list of this.lists) {
      for (let i = 0; ; i++) {
        const t = list.at(i);
        if (t === undefined) break;
        if (!visit(t, ++rank)) return;
      }
    }
  }

  toArray(): PreemptionTask[] {
    const out: PreemptionTask[] = [];
    this.walk((t) => out.push(t) > 0);
    return out;
  }
}

/** The candidates of one pool, revocable and non-revocable (rules 1–2). */
export interface PoolRanking {
  readonly revocable: RankedList;
  readonly nonRevocable: RankedList;
}

export function rankingOf(tasks: Iterable<PreemptionTask>): PoolRanking {
  const r: PoolRanking = { revocable: new RankedList(), nonRevocable: new RankedList() };
  for (const t of tasks) if (isCandidate(t)) (t.revocable ? r.revocable : r.nonRevocable).add(t);
  return r;
}

/** The candidates of one pool, each list in victim order (rules 1–6). */
export function rankCandidates(tasks: readonly PreemptionTask[]): {
  revocable: PreemptionTask[];
  nonRevocable: PreemptionTask[];
} {
  const r = rankingOf(tasks);
  return { revocable: r.revocable.toArray(), nonRevocable: r.nonRevocable.toArray() };
}
