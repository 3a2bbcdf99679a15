import type { ResourceKind } from "../resources/kinds.ts";

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
  /** No overtaking: an earlier gang of the same queue does not fit. */
  | {
      readonly code: "BEHIND_BLOCKED_GANG";
      readonly pool: string;
      readonly queue: AdmissionQueue;
      readonly blockedBy: string;
      /** Why the first waiting gang of the queue does not fit. */
      readonly blockerReason: Exclude<AdmissionReason, { code: "BEHIND_BLOCKED_GANG" }>;
    };

export type AdmissionReasonCode = AdmissionReason["code"];
export type ShortfallReason = Exclude<AdmissionReason, { code: "BEHIND_BLOCKED_GANG" }>;
