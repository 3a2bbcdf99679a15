/**
 * What admission decides on: a snapshot of each leaf pool — its numbers from
 * the entitlement calculator and its configuration, what its admitted tasks
 * hold, and the gangs waiting in it (peloton-semantics.md §3, "Admission").
 */
import type { Resources } from "../resources/resources.ts";

/** A gang: the tasks a job asks to start together; a single task is a gang of one. */
export interface AdmissionGang {
  /** Stable and unique within the pool; names the gang in reasons ("job-7/0-3"). */
  readonly id: string;
  /** Higher is admitted first (the job's `sla.priority`). */
  readonly priority: number;
  /** Arrival order: FIFO within a priority; ties broken by `id`. */
  readonly seq: number;
  /** The sum of its tasks' requests. */
  readonly resources: Resources;
  /** How many tasks; 1 when left out. Only for the words. */
  readonly tasks?: number;
  readonly preemptible: boolean;
  readonly revocable: boolean;
  /** A gang of one controller task (gangs.ts). */
  readonly controller: boolean;
}

/**
 * What a pool's admitted and running tasks hold, in the four ways the checks
 * count it (Peloton's allocation types): non-revocable tasks (against the
 * non-slack entitlement), revocable ones (against the slack entitlement),
 * controller tasks (against the controller limit), and non-preemptible ones
 * (against the reservation).
 */
export interface PoolAllocation {
  readonly nonRevocable: Resources;
  readonly slack: Resources;
  readonly controller: Resources;
  readonly nonPreemptible: Resources;
}

export interface AdmissionPool {
  /** The leaf pool's path, for the reasons' words. */
  readonly path: string;
  readonly nonSlackEntitlement: Resources;
  readonly slackEntitlement: Resources;
  readonly reservation: Resources;
  /** `controllerLimit.maxPercent` of the reservation; null when the pool sets none. */
  readonly controllerLimitPercent: number | null;
  readonly allocation: PoolAllocation;
  /** In any order; admission sorts them. */
  readonly gangs: readonly AdmissionGang[];
}

export interface AdmissionInput {
  readonly pools: readonly AdmissionPool[];
}
