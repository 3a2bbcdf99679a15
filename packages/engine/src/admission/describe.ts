import { formatAmount } from "../resources/format.ts";
import { RESOURCE_KINDS, type ResourceKind } from "../resources/kinds.ts";
import { amountLessOrEqual } from "../resources/resources.ts";
import type { AdmissionQueue, AdmissionReason, NeverFitCause, ShortfallReason } from "./reasons.ts";

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
 * /infra/batch is at its cpu entitlement: 12 of 12 cores allocated, this task
 * needs 2".
 */
export function describeAdmissionReason(reason: AdmissionReason): string {
  if (reason.code === "CAN_NEVER_FIT")
    return `can never fit in pool ${reason.pool}: ${describeNeverFit(reason.cause)}; set aside so the gangs behind it go ahead, until the hosts or the pool change`;
  if (reason.code === "BEHIND_BLOCKED_GANG")
    return `waiting in pool ${reason.pool}'s ${QUEUE_WORDS[reason.queue]} queue behind ${reason.blockerReason.gangTasks > 1 ? "gang " : ""}${reason.blockedBy}, which does not fit: ${describeShortfall(reason.blockerReason)}`;
  return describeShortfall(reason);
}

function describeShortfall(r: ShortfallReason): string {
  const numbers = (bound: number) =>
    `${formatAmount(r.allocation)} of ${formatAmount(bound)} ${UNIT[r.kind]} allocated, ${
      r.gangTasks > 1 ? `this gang of ${r.gangTasks} tasks` : "this task"
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

/** "8 cpu cores", "4096 MB of memory". */
function amountOf(kind: ResourceKind, n: number): string {
  const x = formatAmount(n);
  switch (kind) {
    case "cpu":
      return `${x} cpu cores`;
    case "gpu":
      return `${x} GPUs`;
    case "memory":
    case "disk":
      return `${x} MB of ${kind}`;
  }
}

function hostsWord(n: number): string {
  return n === 1 ? "the only host" : `any of the ${n} hosts`;
}

/**
 * Why a gang can never run, e.g. "a task needs 8 cpu cores, and the largest
 * of the 3 hosts has 4" (also the words of a refusal at submit).
 */
export function describeNeverFit(c: NeverFitCause): string {
  const gang = (tasks: number) => (tasks > 1 ? `this gang of ${tasks} tasks` : "this task");
  switch (c.code) {
    case "TASK_EXCEEDS_EVERY_HOST": {
      if (c.kind === "ports")
        return `a task needs ${c.need} ports, and ${hostsWord(c.hosts)} offers at most ${c.largest}`;
      if (c.kind !== null)
        return `a task needs ${amountOf(c.kind, c.need)}, and the largest host (of ${c.hosts}) has ${amountOf(c.kind, c.largest)}`;
      const parts = RESOURCE_KINDS.filter((k) => c.task.resources[k] > 0).map((k) =>
        amountOf(k, c.task.resources[k]),
      );
      if (c.task.ports > 0) parts.push(`${c.task.ports} ports`);
      return `no host (of ${c.hosts}) has all a task needs at once: ${parts.join(", ")}`;
    }
    case "GANG_EXCEEDS_CLUSTER":
      return `${gang(c.gangTasks)} needs ${amountOf(c.kind, c.gang)}, more than the whole cluster's ${formatAmount(c.capacity)}`;
    case "GANG_EXCEEDS_POOL_LIMIT":
      return `${gang(c.gangTasks)} needs ${amountOf(c.kind, c.gang)}, above the pool's ${c.kind} limit of ${formatAmount(c.limit)}`;
    case "GANG_EXCEEDS_RESERVATION":
      return `${gang(c.gangTasks)} is non-preemptible and needs ${amountOf(c.kind, c.gang)}, above the pool's ${c.kind} reservation of ${formatAmount(c.reservation)} (non-preemptible work never runs on borrowed resources)`;
  }
}
