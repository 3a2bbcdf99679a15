/**
 * Admission, per leaf pool (peloton-semantics.md §3, "Admission"; Peloton's
 * resmgr `DequeueGangs` + admission controller), decided against a snapshot:
 *
 *   1. split the pool's gangs into its four queues, each by priority (higher
 *      first), then arrival;
 *   2. drain the queues in order — non-preemptible, controller, revocable,
 *      pending — taking each queue's gangs from the front while they fit:
 *      entitlement, then controller limit, then reservation;
 *   3. a gang that does not fit stops its queue (no overtaking): it waits with
 *      its shortfall, and every gang behind it waits behind it;
 *   4. each admitted gang adds to the allocation the next check sees;
 *   5. a gang that could never fit (never-fits.ts: above every host, the
 *      cluster, the pool's limit or, non-preemptible, its reservation) is
 *      set aside with that reason and stops nothing: no overtaking protects
 *      a turn that can never come.
 */
import type { Resources } from "../resources/resources.ts";
import { checkControllerLimit, checkEntitlement, checkReservation } from "./checks.ts";
import type {
  AdmissionGang,
  AdmissionInput,
  AdmissionPool,
  ClusterShape,
  PoolAllocation,
} from "./input.ts";
import { whyNeverFits } from "./never-fits.ts";
import { buildQueues } from "./queues.ts";
import {
  ADMISSION_QUEUES,
  type AdmissionQueue,
  type AdmissionReason,
  type ShortfallReason,
} from "./reasons.ts";

export interface AdmittedGang {
  readonly gang: AdmissionGang;
  readonly queue: AdmissionQueue;
}

export interface WaitingGang {
  readonly gang: AdmissionGang;
  readonly queue: AdmissionQueue;
  /** 1 for the first gang still waiting in its queue; 0 for one set aside (CAN_NEVER_FIT). */
  readonly position: number;
  readonly reason: AdmissionReason;
}

export interface PoolAdmission {
  readonly path: string;
  /** In the order they were admitted. */
  readonly admitted: readonly AdmittedGang[];
  /** Every gang left waiting, by queue in drain order, then position. */
  readonly waiting: readonly WaitingGang[];
  /** The allocation with the admitted gangs added. */
  readonly allocation: PoolAllocation;
}

export interface AdmissionResult {
  /** One per input pool, in input order. */
  readonly pools: readonly PoolAdmission[];
}

export function admit(input: AdmissionInput): AdmissionResult {
  return { pools: input.pools.map((pool) => admitPool(pool, input.cluster)) };
}

export function admitPool(pool: AdmissionPool, cluster?: ClusterShape): PoolAdmission {
  const queues = buildQueues(pool.gangs);
  const held = copyAllocation(pool.allocation);
  const admitted: AdmittedGang[] = [];
  const waiting: WaitingGang[] = [];
  const bounds = { limit: pool.limit, reservation: pool.reservation, cluster };
  for (const queue of ADMISSION_QUEUES) {
    const gangs = queues[queue];
    // The first refusal's reason, shared by every gang behind it.
    let blocked: AdmissionReason | null = null;
    let position = 0;
    for (const gang of gangs) {
      const never = whyNeverFits(gang, bounds);
      if (never !== null) {
        // Set aside: it has no place in line (position 0).
        waiting.push({
          gang,
          queue,
          position: 0,
          reason: { code: "CAN_NEVER_FIT", pool: pool.path, cause: never },
        });
        continue;
      }
      if (blocked !== null) {
        waiting.push({ gang, queue, position: ++position, reason: blocked });
        continue;
      }
      const shortfall = whyNot(gang, pool, held);
      if (shortfall === null) {
        admitted.push({ gang, queue });
        addGang(held, gang);
        continue;
      }
      blocked = behind(pool, queue, { id: gang.id, reason: shortfall });
      waiting.push({ gang, queue, position: ++position, reason: shortfall });
    }
  }
  return { path: pool.path, admitted, waiting, allocation: held };
}

/** Peloton's `canAdmit`: the admitters in order, the first refusal wins. */
function whyNot(
  gang: AdmissionGang,
  pool: AdmissionPool,
  held: PoolAllocation,
): ShortfallReason | null {
  return (
    checkEntitlement(gang, pool, held) ??
    checkControllerLimit(gang, pool, held) ??
    checkReservation(gang, pool, held)
  );
}

/** The rest of a blocked queue waits behind its first refusal, sharing that reason. */
function behind(
  pool: AdmissionPool,
  queue: AdmissionQueue,
  blocker: { id: string; reason: ShortfallReason },
): AdmissionReason {
  return {
    code: "BEHIND_BLOCKED_GANG",
    pool: pool.path,
    queue,
    blockedBy: blocker.id,
    blockerReason: blocker.reason,
  };
}

type MutableAllocation = { readonly [K in keyof PoolAllocation]: Resources };

/** The pool's allocation as fresh records this pass may add to (the snapshot stays untouched). */
function copyAllocation(a: PoolAllocation): MutableAllocation {
  return {
    nonRevocable: { ...a.nonRevocable },
    slack: { ...a.slack },
    controller: { ...a.controller },
    nonPreemptible: { ...a.nonPreemptible },
  };
}

/** Peloton's `GetGangAllocation`: the gang counts in every sort it belongs to. */
function addGang(held: MutableAllocation, gang: AdmissionGang): void {
  addInto(gang.revocable ? held.slack : held.nonRevocable, gang.resources);
  if (gang.controller) addInto(held.controller, gang.resources);
  if (!gang.preemptible) addInto(held.nonPreemptible, gang.resources);
}

function addInto(into: Resources, r: Resources): void {
  into.cpu += r.cpu;
  into.gpu += r.gpu;
  into.memory += r.memory;
  into.disk += r.disk;
}
