import type { PlacementStrategy } from "../input.ts";

/** The scorers, in the order their weighted scores are summed. */
export const SCORER_NAMES = ["pack", "spread", "sticky"] as const;

export type ScorerName = (typeof SCORER_NAMES)[number];

/** One weight per scorer: a strategy is such a map, not an argument list. */
export type ScorerWeights = Readonly<Record<ScorerName, number>>;

/** One score per scorer, each on 0–100. */
export type Scores = Readonly<Record<ScorerName, number>>;

/**
 * The strategy picks the scorers' weights. Sticky weighs as much as the main
 * scorer, so the previous host wins unless another is far better. A new
 * strategy is a row here; a new scorer, a name above and a weight in each row.
 */
export const STRATEGY_WEIGHTS: Readonly<Record<PlacementStrategy, ScorerWeights>> = {
  PACK_HOST: { pack: 1, spread: 0, sticky: 1 },
  SPREAD_JOB: { pack: 0, spread: 1, sticky: 1 },
};

const STRATEGIES = Object.keys(STRATEGY_WEIGHTS) as PlacementStrategy[];

const WITHOUT_STICKY = Object.fromEntries(
  STRATEGIES.map((s) => [s, { ...STRATEGY_WEIGHTS[s], sticky: 0 }]),
) as Readonly<Record<PlacementStrategy, ScorerWeights>>;

/** The strategy's weights; sticky only counts for a task that has a previous host. */
export function weightsFor(strategy: PlacementStrategy, hasPreviousHost: boolean): ScorerWeights {
  return (hasPreviousHost ? STRATEGY_WEIGHTS : WITHOUT_STICKY)[strategy];
}

/** The weighted mean of the scores: still on 0–100; 0 when nothing is weighed. */
export function weightedScore(w: ScorerWeights, scores: Scores): number {
  let sum = 0;
  let weights = 0;
  for (const name of SCORER_NAMES) {
    sum += w[name] * scores[name];
    weights += w[name];
  }
  return weights === 0 ? 0 : sum / weights;
}

/** `weightedScore` for a caller holding the three scores apart (the reference placement). */
export function combineScores(
  w: ScorerWeights,
  pack: number,
  spread: number,
  sticky: number,
): number {
  return weightedScore(w, { pack, spread, sticky });
}
