import type { PlacementStrategy } from "../input.ts";

export interface ScorerWeights {
  readonly pack: number;
  readonly spread: number;
  readonly sticky: number;
}

/**
 * The strategy picks the scorers' weights. Sticky weighs as much as the main
 * scorer, so the previous host wins unless another is far better.
 */
export const STRATEGY_WEIGHTS: Readonly<Record<PlacementStrategy, ScorerWeights>> = {
  PACK_HOST: { pack: 1, spread: 0, sticky: 1 },
  SPREAD_JOB: { pack: 0, spread: 1, sticky: 1 },
};

const WITHOUT_STICKY: Readonly<Record<PlacementStrategy, ScorerWeights>> = {
  PACK_HOST: { ...STRATEGY_WEIGHTS.PACK_HOST, sticky: 0 },
  SPREAD_JOB: { ...STRATEGY_WEIGHTS.SPREAD_JOB, sticky: 0 },
};

/** The strategy's weights; sticky only counts for a task that has a previous host. */
export function weightsFor(strategy: PlacementStrategy, hasPreviousHost: boolean): ScorerWeights {
  return (hasPreviousHost ? STRATEGY_WEIGHTS : WITHOUT_STICKY)[strategy];
}

/** The weighted mean of the scores: still on 0–100. */
export function combineScores(
  w: ScorerWeights,
  pack: number,
  spread: number,
  sticky: number,
): number {
  const sum = w.pack + w.spread + w.sticky;
  return sum === 0 ? 0 : (w.pack * pack + w.spread * spread + w.sticky * sticky) / sum;
}
