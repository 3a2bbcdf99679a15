import { formatAmount } from "../resources/format.ts";
import type { ResourceKind } from "../resources/kinds.ts";
import { amountLessOrEqual } from "../resources/resources.ts";
import type { AdmissionQueue, AdmissionReason, ShortfallReason } from "./reasons.ts";

const UNIT: Readonly<Record<ResourceKind, string>> = {
  cpu: "cores",
  gpu: "GPUs",
  memory: "MB",
  disk: "MB",
};

const QUEUE_WORDS: Readonly<Record<AdmissionQueue, string>> = {
  NON_PREEMPTIBLE: "non-preemptible",
  CONTROLLER: "controller",
  REVOCABLE: "revocable",
  PENDING: "pending",
};

/**
 * The one sentence the console shows for a waiting gang, e.g. "pool
 * /infra/batch is at its cpu entitlement: 12 of 12 cores allocated, this gang
 * needs 2".
 */
export function describeAdmissionReason(reason: AdmissionReason): string {
  if (reason.code === "BEHIND_BLOCKED_GANG")
    return `waiting in pool ${reason.pool}'s ${QUEUE_WORDS[reason.queue]} queue behind gang ${reason.blockedBy}, which does not fit: ${describeShortfall(reason.blockerReason)}`;
  return describeShortfall(reason);
}

function describeShortfall(r: ShortfallReason): string {
  const numbers = (bound: number) =>
    `${formatAmount(r.allocation)} of ${formatAmount(bound)} ${UNIT[r.kind]} allocated, ${
      r.gangTasks > 1 ? `this gang of ${r.gangTasks} tasks` : "this gang"
    } needs ${formatAmount(r.gang)}`;
  const full = (bound: number) => amountLessOrEqual(bound, r.allocation);
  switch (r.code) {
    case "POOL_OVER_ENTITLEMENT":
    case "POOL_OVER_SLACK_ENTITLEMENT": {
      const which = r.code === "POOL_OVER_SLACK_ENTITLEMENT" ? `revocable ${r.kind}` : r.kind;
      const where = full(r.entitlement)
        ? `is at its ${which} entitlement`
        : `has too little ${which} entitlement left`;
      return `pool ${r.pool} ${where}: ${numbers(r.entitlement)}`;
    }
    case "CONTROLLER_LIMIT":
      return `pool ${r.pool}'s controller tasks are ${full(r.limit) ? "at" : "near"} their ${r.kind} limit (${formatAmount(r.maxPercent)}% of the reservation): ${numbers(r.limit)}`;
    case "RESERVATION_EXHAUSTED":
      return `pool ${r.pool}'s ${r.kind} reservation is ${full(r.reservation) ? "used up" : "nearly used up"} by non-preemptible tasks, which never run on borrowed resources: ${numbers(r.reservation)}`;
  }
}
