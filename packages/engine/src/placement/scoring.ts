/**
 * The scorers weighed for one task. Only the scorers the strategy weighs are
 * computed while hosts are compared; the chosen host's breakdown is computed
 * in full for "why this host".
 */
import { KIND_COUNT } from "../resources/kinds.ts";
import type { PlacementTask } from "./input.ts";
import type { ScoreBreakdown } from "./result.ts";
import { packScore } from "./scorers/pack.ts";
import { spreadScore } from "./scorers/spread.ts";
import { stickyScore } from "./scorers/sticky.ts";
import { type ScorerWeights, weightsFor } from "./scorers/strategy.ts";
import type { WorkingHosts } from "./working-hosts.ts";

export class TaskScorer {
  private readonly weights: ScorerWeights;
  private readonly weightSum: number;
  /** The job's tasks per host and per domain, looked up once per task. */
  private readonly jobHosts: ReadonlyMap<number, number> | undefined;
  private readonly jobDomains: Int32Array | undefined;
  private readonly fewestInDomain: number;

  constructor(
    private readonly w: WorkingHosts,
    private readonly task: PlacementTask,
    private readonly ask: Float64Array,
  ) {
    this.weights = weightsFor(task.strategy, task.previousHost !== undefined);
    const wt = this.weights;
    this.weightSum = wt.pack + wt.spread + wt.sticky;
    this.jobHosts = w.jobTasksByHost(task.jobId);
    this.jobDomains = w.jobTasksByDomain(task.jobId);
    let fewest = 0;
    if (this.jobDomains && this.jobDomains.length > 0) {
      fewest = Infinity;
      for (const n of this.jobDomains) if (n < fewest) fewest = n;
    }
    this.fewestInDomain = fewest;
  }

  /**
   * The weighted mean (`weightedScore`) of the scorers the strategy's map
   * weighs; the others are not computed. Written out, not looped over names:
   * this runs for every feasible host of every task.
   */
  total(h: number): number {
    const wt = this.weights;
    if (this.weightSum === 0) return 0;
    let total = 0;
    if (wt.pack > 0) total += wt.pack * this.pack(h);
    if (wt.spread > 0) total += wt.spread * this.spread(h);
    if (wt.sticky > 0) total += wt.sticky * this.sticky(h);
    return total / this.weightSum;
  }

  /** Every scorer, and the same total as `total` (the scorers not weighed add nothing to it). */
  breakdown(h: number): ScoreBreakdown {
    return {
      total: this.total(h),
      pack: this.pack(h),
      spread: this.spread(h),
      sticky: this.sticky(h),
    };
  }

  pack(h: number): number {
    return packScore(this.ask, this.w.free, this.w.total, h * KIND_COUNT);
  }

  spread(h: number): number {
    const d = this.w.domainOf[h]!;
    const inDomain = d < 0 ? null : (this.jobDomains?.[d] ?? 0);
    return spreadScore(this.jobHosts?.get(h) ?? 0, inDomain, this.fewestInDomain);
  }

  sticky(h: number): number {
    return stickyScore(this.w.hosts[h]!.hostname, this.task.previousHost);
  }
}
