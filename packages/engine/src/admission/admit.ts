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
 *   4. each admitted gang adds to the allocation the next check sees.
 */
import type { Resources } from "../resources/resources.ts";
import { checkControllerLimit, checkEntitlement, checkReservation } from "./checks.ts";
import type { AdmissionGang, AdmissionInput, AdmissionPool, PoolAllocation } from "./input.ts";
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
  /** 1 for the first gang still waiting in its queue. */
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
  return { pools: input.pools.map(admitPool) };
}

export function admitPool(pool: AdmissionPool): PoolAdmission {
  const queues = buildQueues(pool.gangs);
  const held = copyAllocation(pool.allocation);
  const admitted: AdmittedGang[] = [];
  const waiting: WaitingGang[] = [];
  for (const queue of ADMISSION_QUEUES) {
    const gangs = queues[queue];
    for (let i = 0; i < gangs.length; i++) {
      const gang = gangs[i]!;
      const shortfall = whyNot(gang, pool, held);
      if (shortfall === null) {
        admitted.push({ gang, queue });
        addGang(held, gang);
        continue;
      }
      waitBehind(waiting, gangs, i, queue, shortfall);
      break;
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

/** The blocked gang waits with its shortfall; the rest of its queue waits behind it, sharing that reason. */
function waitBehind(
  waiting: WaitingGang[],
  gangs: readonly AdmissionGang[],
  blocked: number,
  queue: AdmissionQueue,
  shortfall: ShortfallReason,
): void {
  const blocker = gangs[blocked]!;
  waiting.push({ gang: blocker, queue, position: 1, reason: shortfall });
  if (blocked + 1 >= gangs.length) return;
  const behind: AdmissionReason = {
    code: "BEHIND_BLOCKED_GANG",
    pool: shortfall.pool,
    queue,
    blockedBy: blocker.id,
    blockerReason: shortfall,
  };
  for (let j = blocked + 1; j < gangs.length; j++)
    waiting.push({ gang: gangs[j]!, queue, position: j - blocked + 1, reason: behind });
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
