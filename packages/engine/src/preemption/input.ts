/**
 * What a preemption cycle decides on (STYLE.md §5: a snapshot; nothing in it
 * is changed): the leaf pools with their entitlements and usage, the tasks
 * that hold resources, each job's availability budget, and the state carried
 * from the previous period (no clocks: the caller runs one call per period).
 */
import type { Resources } from "../resources/resources.ts";
import type { EntitlementBaselines } from "./takers.ts";

export interface PreemptionPool {
  /** A leaf pool (jobs run only in leaves). */
  readonly path: string;
  readonly nonSlackEntitlement: Resources;
  readonly slackEntitlement: Resources;
  /** Non-revocable tasks admitted or running. */
  readonly allocation: Resources;
  /** Revocable tasks admitted or running. */
  readonly slackAllocation: Resources;
  /** Non-revocable tasks waiting for admission. */
  readonly demand: Resources;
  readonly slackDemand: Resources;
  /**
   * The part of `allocation` admitted but not on a host yet (READY, PLACING):
   * those tasks wait for what a victim frees, so their pool benefits even
   * when admission has already brought it up to its entitlement. Absent: none.
   */
  readonly unplaced?: Resources;
  /** The same of `slackAllocation`. */
  readonly slackUnplaced?: Resources;
}

export interface PreemptionTask {
  readonly taskId: string;
  readonly jobId: string;
  readonly pool: string;
  /** Peloton's task state name; only READY, PLACING and RUNNING tasks can be victims. */
  readonly state: string;
  /** Higher runs first (the job's `sla.priority`). */
  readonly priority: number;
  readonly preemptible: boolean;
  /** Runs on slack (revocable) resources. */
  readonly revocable: boolean;
  readonly resources: Resources;
  /** When its current run started, any increasing clock (ms since the epoch); none before it ran. */
  readonly startedAt?: number;
}

/** A job's availability budget (its SLA's `maximumUnavailableInstances`). */
export interface JobAvailability {
  /** Absent: the job sets no limit (batch jobs). */
  readonly maximumUnavailableInstances?: number;
  /** Instances not running now, for whatever reason. */
  readonly unavailableInstances: number;
}

/** A gang waiting for admission in a pool at its entitlement (intra-pool preemption). */
export interface PendingGang {
  readonly gangId: string;
  readonly pool: string;
  readonly priority: number;
  readonly revocable: boolean;
  /** The sum of its tasks' resources. */
  readonly resources: Resources;
  readonly taskIds: readonly string[];
}

export interface PreemptionInput {
  readonly pools: readonly PreemptionPool[];
  readonly tasks: readonly PreemptionTask[];
  /** By job id; a job not listed has no limit. */
  readonly jobs: Readonly<Record<string, JobAvailability>>;
  /** Consecutive over-allocated periods per pool, as the previous call returned them. */
  readonly overAllocationCounts: Readonly<Record<string, number>>;
  /** Periods in a row a pool must be over its entitlement before it is preempted from. */
  readonly sustainedCount: number;
  /**
   * Per pool, every leaf's entitlements at the last period it was within its
   * own, as the previous call returned them (takers.ts). None: a pool over
   * its entitlement names no pool that took it.
   */
  readonly entitlementBaselines?: EntitlementBaselines;
  /** Per pool in admission order (intra-pool preemption); none: no intra-pool pass. */
  readonly waiting?: readonly PendingGang[];
}

/** Ours are short enough that the effect shows within a minute (Peloton's: 60 s × 5). */
export const DEFAULT_PREEMPTION_PERIOD_SECONDS = 10;
export const DEFAULT_SUSTAINED_OVER_ALLOCATION_COUNT = 3;
