/**
 * What a preemption cycle answers: one decision per victim, each with the
 * numbers it was made on and who it was for, and the state for the next
 * period. The preemptions table records these; `describePreemption` words them.
 */
import type { Resources } from "../resources/resources.ts";
import type { ResourceClass } from "../vocabulary/preemption.ts";
import type { Beneficiary } from "./beneficiary.ts";
import type { PreemptionTask } from "./input.ts";
import type { EntitlementsAt } from "./takers.ts";

/** The victim pool's numbers for the resource class in excess, per kind. */
export interface PoolNumbers {
  readonly allocation: Resources;
  readonly entitlement: Resources;
  readonly demand: Resources;
  /** Inter-pool: allocation − entitlement; intra-pool: allocation + gang − entitlement. */
  readonly excess: Resources;
}

interface DecisionBase {
  readonly pool: string;
  /** The task as the input gave it: READY or PLACING go back to PENDING, RUNNING is killed (PREEMPTED). */
  readonly victim: PreemptionTask;
  readonly resourceClass: ResourceClass;
  readonly numbers: PoolNumbers;
  /** What was still to free when this victim was chosen (it frees part or all of it). */
  readonly remaining: Resources;
  /** 1-based position of the victim in the pool's ranked candidates. */
  readonly rank: number;
}

export interface InterPoolDecision extends DecisionBase {
  readonly kind: "INTER_POOL";
  /**
   * The pools that wait, closest first; when none waits, the pools whose
   * entitlement grew at this pool's expense (each with `entitlementBefore`);
   * empty when neither (the entitlement shrank with the cluster).
   */
  readonly beneficiaries: readonly Beneficiary[];
  /** Where the fairness decision happened: the first beneficiary's common ancestor; null without one. */
  readonly level: string | null;
}

export interface IntraPoolDecision extends DecisionBase {
  readonly kind: "INTRA_POOL";
  readonly beneficiary: {
    readonly gangId: string;
    readonly taskIds: readonly string[];
    readonly priority: number;
    readonly resources: Resources;
  };
  /** The pool itself: priorities decided within it. */
  readonly level: string;
}

export type PreemptionDecision = InterPoolDecision | IntraPoolDecision;

/** A pool that reached the sustained count, and what the walk did with it. */
export interface PoolPreemption {
  readonly pool: string;
  /** Consecutive over-allocated periods reached. */
  readonly count: number;
  readonly nonSlackExcess: Resources;
  readonly slackExcess: Resources;
  /** Left uncovered: not enough preemptible tasks (or the SLA held them). */
  readonly nonSlackUncovered: Resources;
  readonly slackUncovered: Resources;
  readonly victims: number;
  readonly skippedForSla: readonly string[];
}

/**
 * FITS: the gang fits without preemption. PREEMPTS: victims chosen, and the
 * gang then fits. NOT_ENOUGH_LOWER_PRIORITY: even every lower-priority
 * candidate would not make room, so none is preempted. BLOCKED: an earlier
 * gang of the pool could not be made to fit, and a later one may not overtake
 * it (as in admission), so it is not looked at.
 */
export type GangPreemptionOutcome = "FITS" | "PREEMPTS" | "NOT_ENOUGH_LOWER_PRIORITY" | "BLOCKED";

export interface GangPreemption {
  readonly gangId: string;
  readonly pool: string;
  readonly outcome: GangPreemptionOutcome;
  /** allocation + gang − entitlement per kind, when the gang was looked at. */
  readonly need: Resources;
  readonly victims: readonly string[];
  readonly skippedForSla: readonly string[];
}

export type PreemptionInputError =
  | { readonly code: "INVALID_SUSTAINED_COUNT"; readonly value: number }
  | { readonly code: "DUPLICATE_POOL"; readonly pool: string }
  | {
      readonly code: "INVALID_AMOUNT";
      readonly subject: "pool" | "task" | "gang";
      readonly id: string;
      readonly field: string;
      readonly value: number;
    }
  | {
      readonly code: "UNKNOWN_POOL";
      readonly subject: "gang";
      readonly id: string;
      readonly pool: string;
    };

export type PreemptionResult =
  | {
      readonly ok: true;
      /** Inter-pool decisions (pools in input order), then intra-pool ones (gangs in order). */
      readonly decisions: readonly PreemptionDecision[];
      /** Pass to the next period's call. */
      readonly overAllocationCounts: Record<string, number>;
      /** Pass to the next period's call too (takers.ts). */
      readonly entitlementBaselines: Record<string, EntitlementsAt>;
      readonly pools: readonly PoolPreemption[];
      readonly gangs: readonly GangPreemption[];
    }
  | { readonly ok: false; readonly errors: readonly PreemptionInputError[] };
