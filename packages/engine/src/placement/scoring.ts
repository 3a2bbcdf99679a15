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
import { combineScores, type ScorerWeights, weightsFor } from "./scorers/strategy.ts";
import type { WorkingHosts } from "./working-hosts.ts";

export class TaskScorer {
  private readonly weights: ScorerWeights;
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
    this.jobHosts = w.jobTasksByHost(task.jobId);
    this.jobDomains = w.jobTasksByDomain(task.jobId);
    let fewest = 0;
    if (this.jobDomains && this.jobDomains.length > 0) {
      fewest = Infinity;
      for (const n of this.jobDomains) if (n < fewest) fewest = n;
    }
    this.fewestInDomain = fewest;
  }

  total(h: number): number {
    const wt = this.weights;
    return combineScores(
      wt,
      wt.pack > 0 ? this.pack(h) : 0,
      wt.spread > 0 ? this.spread(h) : 0,
      wt.sticky > 0 ? this.sticky(h) : 0,
    );
  }

  breakdown(h: number): ScoreBreakdown {
    const pack = this.pack(h);
    const spread = this.spread(h);
    const sticky = this.sticky(h);
    return { total: combineScores(this.weights, pack, spread, sticky), pack, spread, sticky };
  }

  private pack(h: number): number {
    return packScore(this.ask, this.w.free, this.w.total, h * KIND_COUNT);
  }

  private spread(h: number): number {
    const d = this.w.domainOf[h]!;
    const inDomain = d < 0 ? null : (this.jobDomains?.[d] ?? 0);
    return spreadScore(this.jobHosts?.get(h) ?? 0, inDomain, this.fewestInDomain);
  }

  private sticky(h: number): number {
    return stickyScore(this.w.hosts[h]!.hostname, this.task.previousHost);
  }
}
