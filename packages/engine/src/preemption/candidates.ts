/**
 * The candidates of the pools a cycle looks at, gathered in one pass over
 * the tasks (a cycle over 100,000 tasks touches only the pools it preempts
 * from, and sorts only as far as it walks).
 */
import type { PreemptionInputError } from "./decision.ts";
import type { PreemptionTask } from "./input.ts";
import { isCandidate, type PoolRanking, RankedList } from "./rank.ts";
import { amountErrors } from "./validate.ts";

const NONE: PoolRanking = { revocable: new RankedList(), nonRevocable: new RankedList() };

export class PoolCandidates {
  private readonly byPool = new Map<string, PoolRanking>();
  /** Tasks of these pools with amounts that are not finite numbers ≥ 0. */
  readonly errors: PreemptionInputError[] = [];

  constructor(tasks: readonly PreemptionTask[], pools: ReadonlySet<string>) {
    for (const pool of pools) {
      this.byPool.set(pool, { revocable: new RankedList(), nonRevocable: new RankedList() });
    }
    // An index loop (`for…of` allocates per step here), and the previous task's
    // pool kept at hand: a cycle reads 100,000 tasks, usually listed pool by pool.
    let lastPool: string | undefined;
    let r: PoolRanking | undefined;
    for (let i = 0; i < tasks.length; i++) {
      const t = tasks[i]!;
      if (t.pool !== lastPool) {
        lastPool = t.pool;
        r = this.byPool.get(t.pool);
      }
      if (!r || !isCandidate(t)) continue;
      amountErrors("task", t.taskId, "resources", t.resources, this.errors);
      (t.revocable ? r.revocable : r.nonRevocable).add(t);
    }
  }

  of(pool: string): PoolRanking {
    return this.byPool.get(pool) ?? NONE;
  }
}
