/**
 * Preemption history as plain data: what the preemptor records (one
 * `NewPreemption` per victim) and what readers get back. The numbers are the
 * engine's `PreemptionDecision` numbers, copied so the row reads the same
 * forever; `@peloton/scheduler`'s `preemptionRowOf` builds a row from a
 * decision.
 */
import type { PreemptionKind, ResourceClass, ResourceKind, TaskState } from "@peloton/engine";
import type { CountDelta } from "../count-deltas.ts";

/** An amount per kind: cpu in cores, gpu in devices, memory and disk in MB. */
export type Amounts = Record<ResourceKind, number>;

/** Where the preemption moves its victim: a running task is killed, an admitted one waits again. */
export type PreemptedState = Extract<TaskState, "PREEMPTING" | "PENDING">;

/**
 * A pool the victim's pool gave back for (inter-pool): one that waited, or,
 * when none waited, one whose demand took the entitlement (with
 * `entitlementBefore`: its entitlement at the victim pool's last period
 * within its own).
 */
export interface BeneficiaryNumbers {
  pool: string;
  /** The lowest common ancestor of both pools. */
  level: string;
  demand: Amounts;
  allocation: Amounts;
  entitlement: Amounts;
  entitlementBefore?: Amounts;
}

/** The waiting gang an intra-pool preemption made room for. */
export interface GangNumbers {
  gangId: string;
  taskIds: string[];
  priority: number;
  resources: Amounts;
}

/** The numbers the decision was made on (the `numbers` JSON column). */
export interface PreemptionNumbers {
  resourceClass: ResourceClass;
  /** The victim's 1-based position among its pool's ranked candidates. */
  rank: number;
  /** The victim pool's, for the resource class in excess. */
  allocation: Amounts;
  entitlement: Amounts;
  demand: Amounts;
  /** Inter-pool: allocation − entitlement; intra-pool: allocation + gang − entitlement. */
  excess: Amounts;
  /** What was still to free when this victim was chosen. */
  remaining: Amounts;
  /** What the victim held: its share of the excess. */
  victim: Amounts;
  /**
   * Inter-pool: the pools that waited, closest first; when none waited, the
   * pools whose demand took the entitlement; empty intra-pool, or when neither.
   */
  beneficiaries: BeneficiaryNumbers[];
  /** Intra-pool: the waiting gang; null inter-pool. */
  gang: GangNumbers | null;
}

export interface PreemptionVictim {
  taskId: string;
  jobId: string;
  jobName: string;
  instanceId: number;
  /** The run the decision preempted. */
  runId: number;
  priority: number;
  /** The state the decision saw (READY, PLACING or RUNNING). */
  state: TaskState;
  /** Where the preemption moves it. */
  stateAfter: PreemptedState;
  poolId: string;
  poolPath: string;
}

export interface PreemptionBeneficiary {
  poolId: string | null;
  poolPath: string;
  /** Intra-pool: the waiting gang and its first task. */
  gangId: string | null;
  task: { taskId: string; jobId: string; jobName: string; instanceId: number } | null;
  /** Intra-pool: the gang's priority. */
  priority: number | null;
}

/** One victim of one decision, as the preemptor records it. */
export interface NewPreemption {
  at: Date;
  kind: PreemptionKind;
  victim: PreemptionVictim;
  /**
   * Inter-pool: the closest pool that waited, or else the closest whose
   * demand took the entitlement; null when neither (the entitlement shrank
   * with the cluster).
   */
  beneficiary: PreemptionBeneficiary | null;
  /** Where in the pool tree it was decided; null without a beneficiary. */
  level: string | null;
  /** The rule in words (`describePreemption`), as the console shows it. */
  reason: string;
  numbers: PreemptionNumbers;
}

export interface PreemptionRecord extends NewPreemption {
  id: string;
  /** Whether the victim came back: when its next run reached RUNNING. */
  rescheduled: { at: Date; runId: number } | null;
  /** The victim's task now (its current run); null when the task no longer exists. */
  taskNow: { state: TaskState; runId: number } | null;
}

/** Which side of a preemption a pool filter looks at. */
export const POOL_SIDES = ["victim", "beneficiary", "either"] as const;
export type PoolSide = (typeof POOL_SIDES)[number];

export interface PreemptionFilters {
  /** A pool path, as recorded; `subtree` includes the pools below it. */
  pool?: { path: string; side: PoolSide; subtree: boolean };
  /** The victim's job; with `instanceId`, one instance of it. */
  jobId?: string;
  instanceId?: number;
  /** The victim's task (an instance's id, the same across its runs). */
  taskId?: string;
  kind?: PreemptionKind;
  /** From this time (inclusive) … */
  since?: Date;
  /** … to this one (exclusive). */
  until?: Date;
}

export interface PreemptionListQuery extends PreemptionFilters {
  limit: number;
  cursor?: string | null;
}

/** What recordMany did: victims recorded, and victims whose task had moved on. */
export interface PreemptionRecordOutcome {
  recorded: { id: string; taskId: string }[];
  /**
   * The task was no longer in the state and run the decision saw (it
   * finished, was killed, or moved on): nothing was written for it, and it
   * must not be killed. The next cycle decides again on fresh numbers.
   */
  stale: {
    taskId: string;
    expected: { state: TaskState; runId: number };
    actual: { state: TaskState; runId: number } | null;
  }[];
  /**
   * Per job and state, how many recorded victims left (−) or entered (+) it:
   * what the caller adds to the jobs' task counts in the same transaction
   * (`jobs.addTaskCounts`, as the task writer does for its own moves).
   */
  countDeltas: CountDelta[];
}

/** A victim's task reached RUNNING in this run at this time (it came back). */
export interface RescheduledRun {
  taskId: string;
  runId: number;
  at: Date;
}

/** Preemptions per pool and time bucket, by side. */
export interface PreemptionCountRow {
  bucket: Date;
  /** Null: the pools beyond `topPools`, together. */
  pool: string | null;
  /** Inter-pool preemptions of this pool's tasks. */
  out: number;
  /** Inter-pool preemptions in favour of this pool. */
  in: number;
  /** Intra-pool preemptions within this pool. */
  within: number;
}
