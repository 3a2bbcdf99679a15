import { KIND_COUNT } from "../resources/kinds.ts";
import type { ReservationType } from "../vocabulary/reservation-types.ts";

/**
 * How a pool's amount of one kind came about, step by step, in the order the
 * calculator took them (peloton-semantics.md §1). `at` is the parent whose
 * entitlement was being divided. Amounts are in the kind's unit.
 */
export type ExplanationStep =
  /** The root: the cluster capacity. */
  | { readonly step: "capacity"; readonly amount: number }
  /** Phase 1: allocation + demand + revocable requirement, capped at the limit. */
  | {
      readonly step: "wants";
      readonly amount: number;
      readonly requirement: number;
      readonly limit: number;
    }
  /** Phase 1: the reservation part; `overParent` is what the parent no longer had (absorbed). */
  | {
      readonly step: "reserved";
      readonly amount: number;
      readonly reservation: number;
      readonly type: ReservationType;
      readonly overParent: number;
    }
  /** Phase 2, the first round it was served in. */
  | {
      readonly step: "share";
      readonly round: number;
      readonly amount: number;
      readonly of: number;
      readonly at: string;
      readonly share: number;
      readonly totalShare: number;
    }
  /** Phase 2, later rounds together: what satisfied pools' shares left over carries on. */
  | {
      readonly step: "share-carry";
      readonly rounds: number;
      readonly amount: number;
      readonly at: string;
    }
  /** Phase 2: its fair share reached all it still wanted. */
  | { readonly step: "capped-by-demand"; readonly round: number; readonly want: number }
  /** Phase 3: what nobody asked for, by share among all children. */
  | {
      readonly step: "unclaimed";
      readonly amount: number;
      readonly of: number;
      readonly at: string;
      readonly share: number;
      readonly totalShare: number;
    }
  /** Phase 3: the limit cut the total; `removed` is not redistributed. */
  | { readonly step: "capped-by-limit"; readonly limit: number; readonly removed: number }
  /** Slack pass, memory/disk/gpu: kept from the entitlement for revocable tasks. */
  | {
      readonly step: "slack-kept";
      readonly amount: number;
      readonly need: number;
      readonly requirement: number;
      readonly nonSlack: number;
    }
  /** Slack pass, cpu: the revocable cpu already allocated. */
  | { readonly step: "slack-allocated"; readonly amount: number }
  | {
      readonly step: "slack-share";
      readonly round: number;
      readonly amount: number;
      readonly of: number;
      readonly at: string;
      readonly share: number;
      readonly totalShare: number;
    }
  | {
      readonly step: "slack-share-carry";
      readonly rounds: number;
      readonly amount: number;
      readonly at: string;
    }
  | { readonly step: "slack-capped-by-demand"; readonly round: number; readonly want: number }
  | {
      readonly step: "slack-unclaimed";
      readonly amount: number;
      readonly of: number;
      readonly at: string;
      readonly share: number;
      readonly totalShare: number;
    };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type CarryStep = Mutable<Extract<ExplanationStep, { step: "share-carry" | "slack-share-carry" }>>;

/**
 * Collects steps for the pools asked about; the calculator checks `on[pool]`
 * before building a step, so a calculation without explanations allocates
 * nothing for them.
 */
export class ExplanationRecorder {
  readonly on: Uint8Array;
  readonly steps: (ExplanationStep[] | undefined)[];

  constructor(size: number, pools: "all" | readonly number[]) {
    this.on = new Uint8Array(size);
    if (pools === "all") this.on.fill(1);
    else for (const i of pools) this.on[i] = 1;
    this.steps = new Array(size * KIND_COUNT);
  }

  push(pool: number, kind: number, step: ExplanationStep): void {
    const at = pool * KIND_COUNT + kind;
    const list = this.steps[at];
    if (list) list.push(step);
    else this.steps[at] = [step];
  }

  /**
   * A phase-2 round: the first round a pool is served becomes a `share` step,
   * the later ones add up in one carry step (a round count can reach
   * thousands; see phase 2's fixed totalShare).
   */
  round(
    pool: number,
    kind: number,
    slack: boolean,
    round: number,
    amount: number,
    of: number,
    at: string,
    share: number,
    totalShare: number,
  ): void {
    const list = this.steps[pool * KIND_COUNT + kind];
    const last = list?.[list.length - 1];
    const first = slack ? "slack-share" : "share";
    const carry = slack ? "slack-share-carry" : "share-carry";
    if (last && last.step === carry) {
      const c = last as CarryStep;
      c.rounds++;
      c.amount += amount;
    } else if (last && last.step === first) {
      this.push(pool, kind, { step: carry, rounds: 1, amount, at });
    } else {
      this.push(pool, kind, { step: first, round, amount, of, at, share, totalShare });
    }
  }
}
