/**
 * The three admission checks, one small function each, in Peloton's order
 * (pkg/resmgr/respool/admission.go: entitlementAdmitter, controllerAdmitter,
 * reservationAdmitter). Each answers null (fits) or the shortfall with its
 * numbers, for the first kind that does not fit (in RESOURCE_KINDS order:
 * cpu, gpu, memory, disk).
 */
import type { ResourceKind } from "../resources/kinds.ts";
import { amountLessOrEqual, type Resources } from "../resources/resources.ts";
import type { AdmissionGang, AdmissionPool, PoolAllocation } from "./input.ts";
import type { ShortfallReason } from "./reasons.ts";

/** The first kind in which `held + gang` exceeds `bound` (with ε, Peloton's LessThanOrEqual). */
export function firstKindOver(
  held: Resources,
  gang: Resources,
  bound: Resources,
): ResourceKind | null {
  // Unrolled in RESOURCE_KINDS order: this runs once per gang per check.
  if (!amountLessOrEqual(held.cpu + gang.cpu, bound.cpu)) return "cpu";
  if (!amountLessOrEqual(held.gpu + gang.gpu, bound.gpu)) return "gpu";
  if (!amountLessOrEqual(held.memory + gang.memory, bound.memory)) return "memory";
  if (!amountLessOrEqual(held.disk + gang.disk, bound.disk)) return "disk";
  return null;
}

/**
 * peloton-semantics.md §3: non-revocable allocation + gang ≤ non-slack
 * entitlement; a revocable gang: slack allocation + gang ≤ slack entitlement.
 */
export function checkEntitlement(
  gang: AdmissionGang,
  pool: AdmissionPool,
  held: PoolAllocation,
): ShortfallReason | null {
  const allocation = gang.revocable ? held.slack : held.nonRevocable;
  const entitlement = gang.revocable ? pool.slackEntitlement : pool.nonSlackEntitlement;
  const kind = firstKindOver(allocation, gang.resources, entitlement);
  if (kind === null) return null;
  return {
    code: gang.revocable ? "POOL_OVER_SLACK_ENTITLEMENT" : "POOL_OVER_ENTITLEMENT",
    pool: pool.path,
    kind,
    allocation: allocation[kind],
    gang: gang.resources[kind],
    gangTasks: gang.tasks ?? 1,
    entitlement: entitlement[kind],
  };
}

/**
 * A controller gang fits in `controllerLimit.maxPercent` of the pool's
 * reservation. Not checked for revocable gangs or pools without a limit
 * (Peloton's controllerAdmitter).
 */
export function checkControllerLimit(
  gang: AdmissionGang,
  pool: AdmissionPool,
  held: PoolAllocation,
): ShortfallReason | null {
  const maxPercent = pool.controllerLimitPercent;
  if (!gang.controller || gang.revocable || maxPercent === null) return null;
  const limit = scale(pool.reservation, maxPercent / 100);
  const kind = firstKindOver(held.controller, gang.resources, limit);
  if (kind === null) return null;
  return {
    code: "CONTROLLER_LIMIT",
    pool: pool.path,
    kind,
    allocation: held.controller[kind],
    gang: gang.resources[kind],
    gangTasks: gang.tasks ?? 1,
    limit: limit[kind],
    maxPercent,
  };
}

/**
 * A non-preemptible gang fits in the pool's reservation: such work never runs
 * on borrowed resources, so it never needs to be preempted (Peloton's
 * reservationAdmitter, which also skips revocable gangs).
 */
export function checkReservation(
  gang: AdmissionGang,
  pool: AdmissionPool,
  held: PoolAllocation,
): ShortfallReason | null {
  if (gang.preemptible || gang.revocable) return null;
  const kind = firstKindOver(held.nonPreemptible, gang.resources, pool.reservation);
  if (kind === null) return null;
  return {
    code: "RESERVATION_EXHAUSTED",
    pool: pool.path,
    kind,
    allocation: held.nonPreemptible[kind],
    gang: gang.resources[kind],
    gangTasks: gang.tasks ?? 1,
    reservation: pool.reservation[kind],
  };
}

function scale(r: Resources, f: number): Resources {
  return { cpu: r.cpu * f, gpu: r.gpu * f, memory: r.memory * f, disk: r.disk * f };
}
