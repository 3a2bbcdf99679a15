/**
 * Preemptions in words, the one place they are made: what the console's
 * preemption list shows ("/web was over its cpu entitlement by 6 cores
 * (allocation 30, entitlement 24) while /infra/batch waited for 10 cores,
 * decided at /; preempted running task web-7 (priority 1), the
 * lowest-priority, most recently started candidate left").
 */
import { formatAmount } from "../resources/format.ts";
import { RESOURCE_KINDS, type ResourceKind } from "../resources/kinds.ts";
import { amountLessOrEqual, type Resources, subtractResources } from "../resources/resources.ts";
import type { GangPreemption, PreemptionDecision, PreemptionInputError } from "./decision.ts";
import type { PreemptionTask } from "./input.ts";

const UNITS: Readonly<Record<ResourceKind, readonly [string, string]>> = {
  cpu: ["core", "cores"],
  gpu: ["GPU", "GPUs"],
  memory: ["MB", "MB"],
  disk: ["MB", "MB"],
};

function amount(n: number, k: ResourceKind): string {
  return `${formatAmount(n)} ${UNITS[k][n === 1 ? 0 : 1]}`;
}

const positive = (n: number) => !amountLessOrEqual(n, 0);

/** The first kind (cpu, gpu, memory, disk) in both; else the first in `a`; else cpu. */
function kindOf(a: Resources, b?: Resources): ResourceKind {
  return (
    RESOURCE_KINDS.find((k) => positive(a[k]) && (!b || positive(b[k]))) ??
    RESOURCE_KINDS.find((k) => positive(a[k])) ??
    "cpu"
  );
}

function victimWords(v: PreemptionTask): string {
  const who = `task ${v.taskId} (priority ${v.priority})`;
  switch (v.state) {
    case "RUNNING":
      return `preempted running ${who}`;
    case "READY":
      return `sent admitted ${who} back to PENDING`;
    case "PLACING":
      return `sent ${who} back to PENDING while it was being placed`;
    default:
      return `preempted ${who}`;
  }
}

export function describePreemption(d: PreemptionDecision): string {
  const k = kindOf(d.remaining, d.victim.resources);
  const what = `${d.resourceClass === "SLACK" ? "slack " : ""}${k} entitlement`;
  const { allocation, entitlement } = d.numbers;
  const numbers = `(allocation ${formatAmount(allocation[k])}, entitlement ${formatAmount(entitlement[k])})`;
  if (d.kind === "INTER_POOL") {
    const b = d.beneficiaries[0];
    let forWhom = "; no pool waits for it (the entitlement shrank)";
    if (b?.entitlementBefore) {
      // Nobody waits any more: name whose demand took the entitlement, and how much of it.
      const took = kindOf(subtractResources(b.entitlement, b.entitlementBefore), d.numbers.excess);
      const others = d.beneficiaries.length - 1;
      const more = others > 0 ? ` (and ${others} more pool${others === 1 ? "" : "s"})` : "";
      forWhom =
        `: ${b.pool}'s demand took it${more}, its ${took} entitlement ` +
        `${formatAmount(b.entitlementBefore[took])} → ${formatAmount(b.entitlement[took])}, decided at ${d.level}`;
    } else if (b) {
      const wanted = kindOf(b.demand, d.numbers.excess);
      forWhom = ` while ${b.pool} waited for ${amount(b.demand[wanted], wanted)}, decided at ${d.level}`;
    }
    return (
      `${d.pool} was over its ${what} by ${amount(d.numbers.excess[k], k)} ${numbers}${forWhom}; ` +
      `${victimWords(d.victim)}, the lowest-priority, most recently started candidate left`
    );
  }
  const g = d.beneficiary;
  return (
    `${d.pool} was at its ${what} ${numbers} while gang ${g.gangId} (priority ${g.priority}) ` +
    `waited for ${amount(g.resources[k], k)}; ${victimWords(d.victim)}, the lowest-priority, ` +
    `most recently started candidate below priority ${g.priority}`
  );
}

/** Why a waiting gang did or did not get room. */
export function describeGangPreemption(g: GangPreemption): string {
  const need = RESOURCE_KINDS.filter((k) => positive(g.need[k]))
    .map((k) => amount(g.need[k], k))
    .join(", ");
  switch (g.outcome) {
    case "FITS":
      return `gang ${g.gangId} fits in ${g.pool} without preemption`;
    case "PREEMPTS":
      return `gang ${g.gangId} needed ${need} beyond ${g.pool}'s entitlement: ${g.victims.length} lower-priority task${g.victims.length === 1 ? "" : "s"} preempted`;
    case "NOT_ENOUGH_LOWER_PRIORITY": {
      const sla =
        g.skippedForSla.length > 0
          ? ` (${g.skippedForSla.length} held back by their job's SLA)`
          : "";
      return `gang ${g.gangId} needs ${need} beyond ${g.pool}'s entitlement and its lower-priority preemptible tasks cannot free that${sla}; nothing preempted`;
    }
    case "BLOCKED":
      return `gang ${g.gangId} waits behind an earlier gang of ${g.pool} that cannot be made to fit`;
  }
}

export function describePreemptionInputError(e: PreemptionInputError): string {
  switch (e.code) {
    case "INVALID_SUSTAINED_COUNT":
      return `sustainedCount must be a whole number ≥ 1 (got ${e.value})`;
    case "DUPLICATE_POOL":
      return `pool ${e.pool} is listed twice`;
    case "INVALID_AMOUNT":
      return `${e.subject} ${e.id}: ${e.field} must be a finite number ≥ 0 (got ${e.value})`;
    case "UNKNOWN_POOL":
      return `gang ${e.id}: pool ${e.pool} is not among the pools`;
  }
}
