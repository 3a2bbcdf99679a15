/**
 * The resource manager's preemptor (leader only), on a period and soon after
 * a change (a job submitted, a pool edited, usage or hosts moved):
 *
 *   one snapshot transaction (every read sees the same instant):
 *     usage per pool and state, PENDING tasks
 *     ─▶ entitlements (the pool snapshot + calculator, as admission computes
 *        them) ─▶ leaf pools less what kills in flight give back, waiting
 *        gangs in admission order (preemptor-input)
 *     ─▶ the candidates of the pools a decision may take from, SLA budgets
 *     ─▶ engine `decidePreemptions` with the over-allocation counts kept
 *        across periods (over-allocation-periods)
 *     ─▶ rows (`preemptionRowOf`) ─▶ one transaction through the task writer:
 *        `recordMany` moves each victim (RUNNING → PREEMPTING, READY/PLACING
 *        → PENDING) with its event and row, the jobs' task counts and states
 *     ─▶ kills for the victims now PREEMPTING (the job manager's Killer; the
 *        goal-state loop sends them again if they get lost), admission kicked
 *        for those sent back to PENDING
 *
 * A victim that moved on since the read is stale: nothing is written for it,
 * and the next cycle decides again on fresh numbers.
 */
import {
  advanceOverAllocation,
  decidePreemptions,
  describePreemptionInputError,
  type EntitlementBaselines,
  type PreemptionDecision,
  type PreemptionResult,
  preemptionPoolsOf,
} from "@peloton/engine";
import type {
  NewPreemption,
  PreemptionRecordOutcome,
  PreemptorTaskRow,
  Repositories,
  StorageGateway,
} from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop, type SchedulerLoop } from "../common/loop.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import { jobStateWrites } from "../taskwriter/job-states.ts";
import type { KillOrder } from "../taskwriter/kill-order.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import type { AdmittedTasks } from "./admitted-tasks.ts";
import { loadClusterShape } from "./cluster-shape.ts";
import { OverAllocationPeriods, type PeriodStep } from "./over-allocation-periods.ts";
import { leafPoolNumbersOf } from "./pool-entitlements.ts";
import { preemptionRowOf } from "./preemption/row.ts";
import {
  availabilityOf,
  enginePools,
  jobsWithBudgets,
  type PreemptorSnapshot,
  poolsToRead,
  preemptorSnapshot,
  usageOf,
  waitingGangs,
  withAdmittedInMemory,
} from "./preemptor-input.ts";
import { calculateSnapshot } from "./respool/entitlements.ts";
import { loadPoolSnapshot } from "./respool/snapshot.ts";

/** Ours (peloton-semantics.md §4): Peloton's are 60 s and 5. */
export const DEFAULT_PREEMPTION_PERIOD_MS = 10_000;
export const DEFAULT_SUSTAINED_PERIODS = 3;
export const DEFAULT_PREEMPTION_MIN_INTERVAL_MS = 2_000;

export interface PreemptorTuning {
  /** How often pools are checked for sustained over-allocation. Default 10 s. */
  periodMs?: number;
  /** Periods in a row a pool must be over its entitlement before it is preempted from. Default 3. */
  sustainedPeriods?: number;
  /** Change-triggered cycles (intra-pool preemption in between periods) at most this often. Default 2 s. */
  minIntervalMs?: number;
}

/** One cycle, as decided and recorded (logs, tests, the benchmark). */
export interface PreemptorCycle {
  readonly at: Date;
  /** This cycle started a period (inter-pool preemption may happen). */
  readonly counting: boolean;
  /** What the engine was asked on, and the facts of every task read. */
  readonly snapshot: PreemptorSnapshot;
  readonly overAllocationCounts: Readonly<Record<string, number>>;
  readonly entitlementBaselines: EntitlementBaselines;
  readonly sustainedCount: number;
  readonly result: Extract<PreemptionResult, { ok: true }>;
  readonly rows: readonly NewPreemption[];
  readonly outcome: PreemptionRecordOutcome;
  readonly ms: { read: number; decide: number; write: number };
}

export interface PreemptorLoopOptions extends PreemptorTuning {
  gateway: StorageGateway;
  writer: TaskWriter;
  configs: JobConfigs;
  log: Logger;
  /** Sends kills for runs now PREEMPTING (the job manager's Killer). */
  kill: (orders: readonly KillOrder[]) => Promise<void>;
  /** Victims went back to PENDING: admission has work. */
  onSentBack?: () => void;
  /** Tasks admitted in the leader's memory (rows PENDING): allocation, not waiting demand. */
  admitted?: Pick<AdmittedTasks, "admittedNow">;
  /** Every cycle that got as far as deciding. */
  onCycle?: (cycle: PreemptorCycle) => void;
  now?: () => Date;
}

export class PreemptorLoop implements SchedulerLoop {
  readonly name = "preemptor";
  private readonly loop: PeriodicLoop;
  private readonly periods: OverAllocationPeriods;
  private readonly now: () => Date;
  private readonly minIntervalMs: number;
  private lastTickAt = Number.NEGATIVE_INFINITY;
  private kickTimer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(private readonly opts: PreemptorLoopOptions) {
    this.now = opts.now ?? (() => new Date());
    const periodMs = opts.periodMs ?? DEFAULT_PREEMPTION_PERIOD_MS;
    this.minIntervalMs = opts.minIntervalMs ?? DEFAULT_PREEMPTION_MIN_INTERVAL_MS;
    this.periods = new OverAllocationPeriods(
      periodMs,
      opts.sustainedPeriods ?? DEFAULT_SUSTAINED_PERIODS,
    );
    this.loop = new PeriodicLoop({
      name: this.name,
      periodMs,
      log: opts.log,
      tick: async () => {
        await this.cycle();
      },
    });
  }

  start(): void {
    this.stopped = false;
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.kickTimer);
    this.kickTimer = undefined;
    await this.loop.stop();
  }

  /** Something changed: a cycle soon, but not more often than `minIntervalMs`. */
  kick(): void {
    if (this.stopped || this.kickTimer) return;
    const wait = Math.max(0, this.lastTickAt + this.minIntervalMs - this.now().getTime());
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      this.loop.kick();
    }, wait);
  }

  /** Consecutive over-allocated periods per pool so far. */
  overAllocationCounts(): Readonly<Record<string, number>> {
    return this.periods.current();
  }

  /** One cycle now (the loop's tick): read, decide, record, kill. Null when the input was refused. */
  async cycle(): Promise<PreemptorCycle | null> {
    const { gateway, log } = this.opts;
    const at = this.now();
    this.lastTickAt = at.getTime();
    const started = performance.now();

    const step = this.periods.step(at.getTime());
    const { snapshot, pending } = await gateway.snapshot((tx) => this.read(tx, step));
    const read = performance.now();

    const result = decidePreemptions({
      ...snapshot.input,
      overAllocationCounts: step.overAllocationCounts,
      entitlementBaselines: step.entitlementBaselines,
      sustainedCount: step.sustainedCount,
    });
    if (!result.ok) {
      // Stored rows the engine refuses (a negative amount): nothing is decided, loudly.
      log.error(
        { errors: result.errors.map(describePreemptionInputError) },
        "preemption input refused; no preemption this cycle",
      );
      return null;
    }
    const newRows = result.decisions.map((d) => rowOf(d, snapshot.tasks, snapshot.poolIds, at));
    const decided = performance.now();

    const outcome = await this.record(newRows, at);
    this.periods.settle(
      step,
      at.getTime(),
      result.overAllocationCounts,
      result.entitlementBaselines,
    );
    await this.afterRecord(newRows, outcome, snapshot.tasks);
    const written = performance.now();

    const ms = {
      read: Math.round(read - started),
      decide: Math.round(decided - read),
      write: Math.round(written - decided),
    };
    log.debug(
      {
        counting: step.counting,
        pending,
        candidates: snapshot.input.tasks.length,
        pools: snapshot.input.pools.length,
        waitingGangs: snapshot.input.waiting?.length ?? 0,
        due: result.pools.length,
        victims: newRows.length,
        recorded: outcome.recorded.length,
        stale: outcome.stale.length,
        ...ms,
      },
      "preemption cycle",
    );
    if (outcome.recorded.length > 0)
      log.info(
        {
          recorded: outcome.recorded.length,
          pools: [...new Set(newRows.map((r) => r.victim.poolPath))],
        },
        "tasks preempted",
      );
    const cycle: PreemptorCycle = {
      at,
      counting: step.counting,
      snapshot,
      overAllocationCounts: step.overAllocationCounts,
      entitlementBaselines: step.entitlementBaselines,
      sustainedCount: step.sustainedCount,
      result,
      rows: newRows,
      outcome,
      ms,
    };
    this.opts.onCycle?.(cycle);
    return cycle;
  }

  /**
   * The snapshot, read in one snapshot transaction: usage per pool and
   * state, and the PENDING tasks, first; then the candidates of the pools
   * a decision may take from (those due this period, those where a waiting
   * gang outranks a candidate), and the SLA budgets of their jobs. Pools and
   * capacity come from the gateway (the tree is cached while it holds).
   */
  private async read(
    tx: Repositories,
    step: PeriodStep,
  ): Promise<{ snapshot: PreemptorSnapshot; pending: number }> {
    const { gateway, configs } = this.opts;
    const read = await tx.preemptorReads.usage();
    const stored = await tx.preemptorReads.pending();
    const admitted = this.opts.admitted?.admittedNow() ?? [];
    const usage = withAdmittedInMemory(read, admitted);
    const admittedIds = new Set(admitted.map((t) => t.row.taskId));
    const pending = stored.filter((t) => !admittedIds.has(t.taskId));
    const pools = await loadPoolSnapshot(gateway, { usage: usageOf(usage) });
    const entitlements = calculateSnapshot(pools);
    const leaves = leafPoolNumbersOf(pools, entitlements);
    const pathOf = new Map([...leaves].map(([id, leaf]) => [id, leaf.path]));
    const poolIds = new Map(pools.records.map((r) => [r.path, r.id]));
    const engine = enginePools(preemptionPoolsOf(entitlements), usage, pathOf);
    const waiting = waitingGangs(
      pending,
      leaves,
      await configs.get(jobIdsOf(pending)),
      pending.length > 0 ? await loadClusterShape(tx) : undefined,
    );
    // The engine makes the same pools due from the same numbers and counts.
    const due = advanceOverAllocation(engine, step.overAllocationCounts, step.sustainedCount).due;
    const candidates = await tx.preemptorReads.candidates(
      poolsToRead({ due: due.map((d) => d.pool.path), waiting, usage, poolIds, pathOf }),
    );
    const candidateConfigs = await configs.get(jobIdsOf(candidates));
    const budgets = await tx.preemptorReads.availability(
      jobsWithBudgets(candidates, candidateConfigs),
    );
    const snapshot = preemptorSnapshot({
      pools: engine,
      waiting,
      candidates,
      pending,
      pathOf,
      poolIds,
      availability: availabilityOf(candidateConfigs, budgets),
    });
    return { snapshot, pending: pending.length };
  }

  /**
   * The victims' moves, events and rows, and their jobs' task counts and
   * states, in one transaction of the task writer (the leader's one writer
   * of task state: it runs this call alone, since the victims are not
   * declared as changes, and retries on a deadlock).
   */
  private async record(rows: readonly NewPreemption[], at: Date): Promise<PreemptionRecordOutcome> {
    if (rows.length === 0) return { recorded: [], stale: [], countDeltas: [] };
    let outcome: PreemptionRecordOutcome = { recorded: [], stale: [], countDeltas: [] };
    await this.opts.writer.write({
      changes: [],
      alongside: async (tx) => {
        outcome = await tx.preemptions.recordMany(rows);
        const jobs = await tx.jobs.addTaskCounts(outcome.countDeltas);
        await tx.jobs.writeStates(jobStateWrites(jobs, at));
      },
    });
    return outcome;
  }

  /** Kills for the victims now PREEMPTING; admission for those back in PENDING. */
  private async afterRecord(
    rows: readonly NewPreemption[],
    outcome: PreemptionRecordOutcome,
    tasks: ReadonlyMap<string, PreemptorTaskRow>,
  ): Promise<void> {
    if (outcome.recorded.length === 0) return;
    const recorded = new Set(outcome.recorded.map((r) => r.taskId));
    const kills: KillOrder[] = [];
    let sentBack = false;
    for (const r of rows) {
      if (!recorded.has(r.victim.taskId)) continue;
      if (r.victim.stateAfter === "PENDING") {
        sentBack = true;
        continue;
      }
      const t = tasks.get(r.victim.taskId);
      if (t?.clusterTaskId)
        kills.push({
          taskId: t.taskId,
          jobId: t.jobId,
          instanceId: t.instanceId,
          clusterTaskId: t.clusterTaskId,
          agentId: t.agentId,
        });
    }
    if (sentBack) this.opts.onSentBack?.();
    await this.opts.kill(kills);
  }
}

function jobIdsOf(rows: readonly PreemptorTaskRow[]): string[] {
  const ids = new Set<string>();
  for (const r of rows) ids.add(r.jobId);
  return [...ids];
}

/** What a history row names of a task (the victim, or the waiting gang's first). */
export type VictimRowFacts = Pick<
  PreemptorTaskRow,
  "taskId" | "jobId" | "jobName" | "instanceId" | "runId" | "poolId"
>;

/** A decision's history row, with the facts of the victim and the gang the read gave. */
export function rowOf(
  d: PreemptionDecision,
  tasks: ReadonlyMap<string, VictimRowFacts>,
  poolIds: ReadonlyMap<string, string>,
  at: Date,
): NewPreemption {
  const v = tasks.get(d.victim.taskId)!;
  const first = d.kind === "INTRA_POOL" ? tasks.get(d.beneficiary.taskIds[0]!) : undefined;
  return preemptionRowOf(
    d,
    {
      victim: { jobName: v.jobName, instanceId: v.instanceId, runId: v.runId, poolId: v.poolId },
      poolIds,
      ...(first
        ? {
            gangTask: {
              taskId: first.taskId,
              jobId: first.jobId,
              jobName: first.jobName,
              instanceId: first.instanceId,
            },
          }
        : {}),
    },
    at,
  );
}
