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
  /**
   * What its tasks ask of the one host each runs on (distinct shapes). Left
   * out, the hosts are not asked whether the gang could ever be placed.
   */
  readonly shapes?: readonly TaskShape[];
}

/** What one task asks of the single host it runs on: resources and how many ports. */
export interface TaskShape {
  readonly resources: Resources;
  readonly ports: number;
}

/** A host's whole size: what it could give one task if nothing else ran on it. */
export interface HostShape {
  readonly resources: Resources;
  readonly ports: number;
  /** How many hosts have this shape (for the words). */
  readonly hosts: number;
}

/**
 * The cluster as far as "could this ever run" goes: its capacity (the sum of
 * the hosts that count, peloton-semantics.md §1) and its hosts' shapes.
 */
export interface ClusterShape {
  readonly capacity: Resources;
  /** Empty when no host has registered yet: then nothing is judged against hosts. */
  readonly hosts: readonly HostShape[];
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
  /**
   * The most its entitlement can ever be: the lowest limit on its path from
   * the root, per kind (the calculator caps every pool at its limit). Left
   * out, no gang is judged against it.
   */
  readonly limit?: Resources;
  readonly allocation: PoolAllocation;
  /** In any order; admission sorts them. */
  readonly gangs: readonly AdmissionGang[];
}

export interface AdmissionInput {
  readonly pools: readonly AdmissionPool[];
  /** Left out, no gang is judged against the hosts. */
  readonly cluster?: ClusterShape;
}
