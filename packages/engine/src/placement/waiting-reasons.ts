/**
 * The resolvable flag on a waiting task's row. The row keeps a reason code and
 * a sentence (no flag column), so an unplaced task no change of allocation
 * can place is written with a code of its own, CAN_NEVER_PLACE, the way
 * Kubernetes tells UnschedulableAndUnresolvable from Unschedulable; with
 * admission's CAN_NEVER_FIT it makes the set of waits that are not waits,
 * which the API and the console read back as `resolvable: false`.
 */
import type { AdmissionReasonCode } from "../admission/reasons.ts";
import type { UnplacedReason, UnplacedTask } from "./result.ts";

export const CAN_NEVER_PLACE = "CAN_NEVER_PLACE";

/** The code written on an unplaced task's row. */
export type UnplacedRowReason = UnplacedReason | typeof CAN_NEVER_PLACE;

export function unplacedRowReason(u: UnplacedTask): UnplacedRowReason {
  return u.resolvable ? u.reason : CAN_NEVER_PLACE;
}

/** Waiting reasons that no change of allocation resolves (only hosts or pools changing do). */
export const UNRESOLVABLE_WAITING_REASONS: readonly (AdmissionReasonCode | UnplacedRowReason)[] = [
  "CAN_NEVER_FIT",
  CAN_NEVER_PLACE,
];

/** Whether a waiting task's row reason is one that work ending or preemption can resolve. */
export function isResolvableWaitingReason(reason: string | null): boolean {
  return !(UNRESOLVABLE_WAITING_REASONS as readonly (string | null)[]).includes(reason);
}
