/**
 * A preemption decision as the row the history keeps (pure): the engine's
 * `PreemptionDecision` plus what the decision does not know about its victim
 * (job name, instance, run, pool id) and, intra-pool, the waiting gang's
 * first task. The preemptor records these with `tx.preemptions.recordMany`.
 */
import {
  CANDIDATE_STATES,
  canTransition,
  describePreemption,
  type TaskState as EngineTaskState,
  type PreemptionDecision,
  type Resources,
  type TaskState,
} from "@peloton/engine";
import type {
  Amounts,
  NewPreemption,
  PreemptedState,
  PreemptionBeneficiary,
  PreemptionNumbers,
} from "@peloton/storage";

/** What the decision's snapshot knew of the victim beyond the engine's task. */
export interface VictimFacts {
  readonly jobName: string;
  readonly instanceId: number;
  /** The run the decision saw. */
  readonly runId: number;
  readonly poolId: string;
}

/** A task named as people read it: its job's name and its instance. */
export interface TaskFacts {
  readonly taskId: string;
  readonly jobId: string;
  readonly jobName: string;
  readonly instanceId: number;
}

export interface PreemptionFacts {
  readonly victim: VictimFacts;
  /** Pool ids by path in the decision's pool tree (for the beneficiary pool). */
  readonly poolIds: ReadonlyMap<string, string>;
  /** Intra-pool: the waiting gang's first task. Required for an intra-pool decision. */
  readonly gangTask?: TaskFacts;
}

/**
 * Where preemption moves a victim (peloton-semantics.md §4): one not yet
 * running goes straight back to PENDING; a running one is killed, PREEMPTING
 * until the cluster confirms.
 */
export function preemptedStateOf(state: string): PreemptedState {
  if (!(CANDIDATE_STATES as readonly string[]).includes(state)) {
    throw new Error(
      `a ${state} task is never a preemption victim (${CANDIDATE_STATES.join(", ")})`,
    );
  }
  const to: PreemptedState = state === "RUNNING" ? "PREEMPTING" : "PENDING";
  // The lifecycle table is the authority; this only names its preemption edge.
  if (!canTransition(state as EngineTaskState, to)) {
    throw new Error(`the task lifecycle does not allow ${state} → ${to}`);
  }
  return to;
}

const amounts = (r: Resources): Amounts => ({
  cpu: r.cpu,
  gpu: r.gpu,
  memory: r.memory,
  disk: r.disk,
});

const label = (t: { jobName: string; instanceId: number }) => `${t.jobName}/${t.instanceId}`;

/**
 * The engine names tasks and gangs by id; the stored sentence names them the
 * way people read them ("web-frontend/7"), made by the engine's own words
 * (`describePreemption`, the one place preemptions are worded).
 */
function sentenceOf(d: PreemptionDecision, facts: PreemptionFacts): string {
  const victim = { ...d.victim, taskId: label(facts.victim) };
  if (d.kind === "INTER_POOL") return describePreemption({ ...d, victim });
  const g = facts.gangTask!;
  const more = d.beneficiary.taskIds.length - 1;
  const gangId = more > 0 ? `${label(g)} and ${more} more` : label(g);
  return describePreemption({ ...d, victim, beneficiary: { ...d.beneficiary, gangId } });
}

function numbersOf(d: PreemptionDecision): PreemptionNumbers {
  return {
    resourceClass: d.resourceClass,
    rank: d.rank,
    allocation: amounts(d.numbers.allocation),
    entitlement: amounts(d.numbers.entitlement),
    demand: amounts(d.numbers.demand),
    excess: amounts(d.numbers.excess),
    remaining: amounts(d.remaining),
    victim: amounts(d.victim.resources),
    beneficiaries:
      d.kind === "INTER_POOL"
        ? d.beneficiaries.map((b) => ({
            pool: b.pool,
            level: b.level,
            demand: amounts(b.demand),
            allocation: amounts(b.allocation),
            entitlement: amounts(b.entitlement),
            ...(b.entitlementBefore ? { entitlementBefore: amounts(b.entitlementBefore) } : {}),
          }))
        : [],
    gang:
      d.kind === "INTRA_POOL"
        ? {
            gangId: d.beneficiary.gangId,
            taskIds: [...d.beneficiary.taskIds],
            priority: d.beneficiary.priority,
            resources: amounts(d.beneficiary.resources),
          }
        : null,
  };
}

function beneficiaryOf(
  d: PreemptionDecision,
  facts: PreemptionFacts,
): PreemptionBeneficiary | null {
  if (d.kind === "INTRA_POOL") {
    return {
      poolId: facts.poolIds.get(d.pool) ?? null,
      poolPath: d.pool,
      gangId: d.beneficiary.gangId,
      task: { ...facts.gangTask! },
      priority: d.beneficiary.priority,
    };
  }
  const first = d.beneficiaries[0];
  if (!first) return null;
  return {
    poolId: facts.poolIds.get(first.pool) ?? null,
    poolPath: first.pool,
    gangId: null,
    task: null,
    priority: null,
  };
}

/** The history row of one decision, decided at `at`. */
export function preemptionRowOf(
  decision: PreemptionDecision,
  facts: PreemptionFacts,
  at: Date,
): NewPreemption {
  if (decision.kind === "INTRA_POOL" && !facts.gangTask) {
    throw new Error(
      `intra-pool decision for gang ${decision.beneficiary.gangId}: name its first task`,
    );
  }
  const v = decision.victim;
  return {
    at,
    kind: decision.kind,
    victim: {
      taskId: v.taskId,
      jobId: v.jobId,
      jobName: facts.victim.jobName,
      instanceId: facts.victim.instanceId,
      runId: facts.victim.runId,
      priority: v.priority,
      state: v.state as TaskState,
      stateAfter: preemptedStateOf(v.state),
      poolId: facts.victim.poolId,
      poolPath: decision.pool,
    },
    beneficiary: beneficiaryOf(decision, facts),
    level: decision.level,
    reason: sentenceOf(decision, facts),
    numbers: numbersOf(decision),
  };
}
