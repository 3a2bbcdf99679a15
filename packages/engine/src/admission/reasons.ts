import type { ResourceKind } from "../resources/kinds.ts";
import type { Resources } from "../resources/resources.ts";

/**
 * The four queues of a leaf pool, in the order they are drained (Peloton's
 * resmgr `DequeueGangs`): non-preemptible, controller, revocable, pending.
 */
export const ADMISSION_QUEUES = ["NON_PREEMPTIBLE", "CONTROLLER", "REVOCABLE", "PENDING"] as const;
export type AdmissionQueue = (typeof ADMISSION_QUEUES)[number];

/** A check that failed: which kind first, and the numbers. */
interface Shortfall {
  readonly pool: string;
  readonly kind: ResourceKind;
  /** The pool's allocation of the counted sort, before this gang. */
  readonly allocation: number;
  /** This gang's request of that kind, and how many tasks it has. */
  readonly gang: number;
  readonly gangTasks: number;
}

/**
 * Why a gang waits: a closed set of codes with the numbers (STYLE.md §3).
 * The first three are Peloton's admitters in its order (entitlement,
 * controller, reservation); the last says whose turn it is.
 */
export type AdmissionReason =
  /** Non-revocable allocation + gang > non-slack entitlement. */
  | (Shortfall & { readonly code: "POOL_OVER_ENTITLEMENT"; readonly entitlement: number })
  /** Revocable: slack allocation + gang > slack entitlement. */
  | (Shortfall & { readonly code: "POOL_OVER_SLACK_ENTITLEMENT"; readonly entitlement: number })
  /** Controller allocation + gang > maxPercent of the reservation. */
  | (Shortfall & {
      readonly code: "CONTROLLER_LIMIT";
      readonly limit: number;
      readonly maxPercent: number;
    })
  /** Non-preemptible allocation + gang > reservation. */
  | (Shortfall & { readonly code: "RESERVATION_EXHAUSTED"; readonly reservation: number })
  /** However the pool and cluster free up, this gang cannot run: it waits aside, blocking no one. */
  | { readonly code: "CAN_NEVER_FIT"; readonly pool: string; readonly cause: NeverFitCause }
  /** No overtaking: an earlier gang of the same queue does not fit. */
  | {
      readonly code: "BEHIND_BLOCKED_GANG";
      readonly pool: string;
      readonly queue: AdmissionQueue;
      readonly blockedBy: string;
      /** Why the first waiting gang of the queue does not fit. */
      readonly blockerReason: ShortfallReason;
    };

export type AdmissionReasonCode = AdmissionReason["code"];
/** A gang that could fit later, and does not now: it stops its queue. */
export type ShortfallReason = Exclude<
  AdmissionReason,
  { code: "BEHIND_BLOCKED_GANG" } | { code: "CAN_NEVER_FIT" }
>;

/**
 * Why a gang can never be admitted and placed, with the numbers. The bounds
 * move only when someone changes the cluster or the pools (a host added, a
 * limit raised), and admission asks again every round.
 */
export type NeverFitCause =
  /**
   * No host could hold one of its tasks even empty: `kind` is the first
   * whose need is above every host's (then `largest` is the most any host
   * has), or null when each kind fits some host but no host has them all.
   */
  | {
      readonly code: "TASK_EXCEEDS_EVERY_HOST";
      readonly task: { readonly resources: Resources; readonly ports: number };
      readonly kind: ResourceKind | "ports" | null;
      readonly need: number;
      readonly largest: number;
      readonly hosts: number;
    }
  /** The gang's sum is above the cluster's capacity (all hosts together). */
  | (GangBound & { readonly code: "GANG_EXCEEDS_CLUSTER"; readonly capacity: number })
  /** Above the pool's limit (the lowest on its path): its entitlement never gets there. */
  | (GangBound & { readonly code: "GANG_EXCEEDS_POOL_LIMIT"; readonly limit: number })
  /** Non-preemptible and above the pool's reservation, the most such work may hold. */
  | (GangBound & { readonly code: "GANG_EXCEEDS_RESERVATION"; readonly reservation: number });

interface GangBound {
  readonly kind: ResourceKind;
  readonly gang: number;
  readonly gangTasks: number;
}
