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
import {
  SCORER_NAMES,
  type ScorerName,
  type ScorerWeights,
  weightedScore,
  weightsFor,
} from "./scorers/strategy.ts";
import type { WorkingHosts } from "./working-hosts.ts";

/** Each scorer by name, on one task's scorer. */
const SCORERS: Readonly<Record<ScorerName, (s: TaskScorer, h: number) => number>> = {
  pack: (s, h) => s.pack(h),
  spread: (s, h) => s.spread(h),
  sticky: (s, h) => s.sticky(h),
};

/** The scorers a weight map weighs (weight > 0), in `SCORER_NAMES` order; one list per map. */
interface Weighed {
  readonly scorers: readonly ((s: TaskScorer, h: number) => number)[];
  readonly weights: Float64Array;
  readonly sum: number;
}
const weighedCache = new WeakMap<ScorerWeights, Weighed>();

function weighedOf(w: ScorerWeights): Weighed {
  let out = weighedCache.get(w);
  if (!out) {
    const names = SCORER_NAMES.filter((n) => w[n] > 0);
    out = {
      scorers: names.map((n) => SCORERS[n]),
      weights: Float64Array.from(names, (n) => w[n]),
      sum: names.reduce((a, n) => a + w[n], 0),
    };
    weighedCache.set(w, out);
  }
  return out;
}

export class TaskScorer {
  private readonly weights: ScorerWeights;
  private readonly weighed: Weighed;
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
    this.weighed = weighedOf(this.weights);
    this.jobHosts = w.jobTasksByHost(task.jobId);
    this.jobDomains = w.jobTasksByDomain(task.jobId);
    let fewest = 0;
    if (this.jobDomains && this.jobDomains.length > 0) {
      fewest = Infinity;
      for (const n of this.jobDomains) if (n < fewest) fewest = n;
    }
    this.fewestInDomain = fewest;
  }

  /** The weighted mean of the scorers the strategy weighs (the others are not computed). */
  total(h: number): number {
    const { scorers, weights, sum } = this.weighed;
    if (sum === 0) return 0;
    let total = 0;
    for (let i = 0; i < scorers.length; i++) total += weights[i]! * scorers[i]!(this, h);
    return total / sum;
  }

  breakdown(h: number): ScoreBreakdown {
    const scores = { pack: this.pack(h), spread: this.spread(h), sticky: this.sticky(h) };
    return { total: weightedScore(this.weights, scores), ...scores };
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
