import type { CompiledPools } from "./compile.ts";
import type { ExplanationRecorder } from "./explanation.ts";

/**
 * The arrays one calculation reads and writes, laid out like `CompiledPools`
 * (`[index * KIND_COUNT + kind]`). Allocated once per calculation so the
 * phases run without allocating.
 */
export interface Work {
  readonly pools: CompiledPools;
  /** Phase 1's `want`: needs capped at the limit. */
  readonly want: Float64Array;
  /** Non-revocable allocation + demand. */
  readonly nonSlackNeed: Float64Array;
  /** `min(slack limit, revocable allocation + revocable demand)`. */
  readonly slackNeed: Float64Array;
  readonly slackDemand: Float64Array;
  readonly slackAllocation: Float64Array;
  /** Scratch: unmet demand while a parent is divided. */
  readonly unmet: Float64Array;
  /** Scratch: children still unmet in phase-2 rounds. */
  readonly active: Int32Array;
  /** Scratch, per kind: phase 1's `totalShare` (shares of the children wanting more than their reservation). */
  readonly totalShare: Float64Array;
  /** Scratch: the slack pass's per-kind amounts for one child. */
  readonly kept: Float64Array;
  readonly slackFree: Float64Array;
  readonly entitlement: Float64Array;
  readonly nonSlackEntitlement: Float64Array;
  readonly slackEntitlement: Float64Array;
  readonly rec: ExplanationRecorder | null;
}
