/**
 * The resource manager's admission loop (leader only), on a period and
 * whenever something changes what may run (a job submitted, a task ended,
 * a pool or a host changed):
 *
 *   entitlement per leaf pool (pool-entitlements) + what admitted tasks hold
 *     + PENDING tasks as gangs (admission-input)
 *     ─▶ engine `admit`: per pool, four queues by priority then arrival,
 *        no overtaking; each gang admitted whole or not at all
 *     ─▶ admitted: READY in the leader's memory (admitted-tasks), handed to
 *        placement (kicked); the row stays PENDING, and placement writes the
 *        admission's event with its LAUNCHING. A row that said why it waited
 *        in line says it was admitted instead (the rest write nothing).
 *     ─▶ waiting: the reason and place in line on the task row, written only
 *        when it changed — "why pending" is always an answer from data;
 *        a gang that could never fit the hosts or the pool (CAN_NEVER_FIT)
 *        is set aside and the queue moves past it, every round anew
 *
 * Every round decides afresh over every PENDING row but those in
 * placement's hands: an admitted task not yet taken is admitted again, or
 * not, when its pool's entitlement moved.
 */
import {
  type AdmissionQueue,
  type AdmissionReasonCode,
  admit,
  describeAdmissionReason,
} from "@peloton/engine";
import type { StorageGateway, TaskChange } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop, type SchedulerLoop } from "../common/loop.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import { noteChange } from "../taskwriter/task-notes.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import { admissionSnapshot } from "./admission-input.ts";
import { type AdmittedTask, type AdmittedTasks, withHeldInHand } from "./admitted-tasks.ts";
import { loadClusterShape } from "./cluster-shape.ts";
import { leafPoolNumbers } from "./pool-entitlements.ts";

export interface AdmissionLoopOptions {
  gateway: StorageGateway;
  writer: TaskWriter;
  configs: JobConfigs;
  /** Where admitted tasks wait for placement (this term's memory). */
  admitted: AdmittedTasks;
  log: Logger;
  /** Called when tasks were admitted (placement has work). */
  onAdmitted?: () => void;
  /** Default 1 s. */
  periodMs?: number;
  now?: () => Date;
}

const QUEUE_WORDS: Record<AdmissionQueue, string> = {
  NON_PREEMPTIBLE: "non-preemptible",
  CONTROLLER: "controller",
  REVOCABLE: "revocable",
  PENDING: "pending",
};

/** The reasons admission writes on a waiting row: stale once the task is admitted. */
const QUEUE_REASONS: ReadonlySet<string> = new Set(
  Object.keys({
    POOL_OVER_ENTITLEMENT: true,
    POOL_OVER_SLACK_ENTITLEMENT: true,
    CONTROLLER_LIMIT: true,
    RESERVATION_EXHAUSTED: true,
    CAN_NEVER_FIT: true,
    BEHIND_BLOCKED_GANG: true,
    POOL_NOT_LEAF: true,
  } satisfies Record<AdmissionReasonCode | "POOL_NOT_LEAF", true>),
);

/** The admission event's reason, and an admitted row's when it had said why it waited in line. */
const ADMITTED_REASON = "ADMITTED";

export class AdmissionLoop implements SchedulerLoop {
  readonly name = "resource-manager";
  private readonly loop: PeriodicLoop;
  private readonly now: () => Date;
  /** READY rows an older leader left are back in line (once per term). */
  private requeued = false;

  constructor(private readonly opts: AdmissionLoopOptions) {
    this.now = opts.now ?? (() => new Date());
    this.loop = new PeriodicLoop({
      name: this.name,
      periodMs: opts.periodMs ?? 1_000,
      log: opts.log,
      tick: () => this.tick(),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  kick(): void {
    this.loop.kick();
  }

  private async tick(): Promise<void> {
    const { gateway, admitted: stage } = this.opts;
    const started = performance.now();
    if (!this.requeued) {
      await this.requeueLeftOver();
      this.requeued = true;
    }
    stage.beginRound();
    // Woken by every commit: with placement holding a big job's tasks, most rounds have nothing new.
    const ids = await gateway.admissionReads.pendingIds();
    if (ids.every((id) => stage.isInHand(id))) {
      stage.admit([]);
      return;
    }
    const read = await gateway.admissionReads.pending();
    const [pools, held, configs, cluster] = await Promise.all([
      leafPoolNumbers(gateway),
      gateway.admissionReads.heldByPool(),
      this.opts.configs.get(read.map((t) => t.jobId)),
      loadClusterShape(gateway),
    ]);
    // After the reads: a task placement took meanwhile is in hand, not pending.
    const pending = read.filter((t) => !stage.isInHand(t.taskId));
    if (pending.length === 0) {
      stage.admit([]);
      return;
    }
    const snapshot = admissionSnapshot(
      pending,
      pools,
      withHeldInHand(held, stage.inHand()),
      configs,
      cluster,
    );
    const result = admit(snapshot.input);
    const now = this.now();
    const admitted: AdmittedTask[] = [];
    // Why the others still wait (and that the ones which waited are admitted now): one write.
    const notes: TaskChange[] = [];
    for (const pool of result.pools) {
      for (const a of pool.admitted) {
        const message = `admitted in pool ${pool.path} (its ${QUEUE_WORDS[a.queue]} queue)`;
        for (const row of snapshot.members.get(a.gang.id)?.tasks ?? []) {
          admitted.push({ row, admittedAt: now, message });
          if (row.reason !== null && QUEUE_REASONS.has(row.reason)) {
            const note = noteChange(row, ADMITTED_REASON, `${message}; waiting for a host`);
            if (note) notes.push(note);
          }
        }
      }
      for (const w of pool.waiting) {
        // A gang set aside has no place in line: the sentence is all.
        const message =
          w.reason.code === "CAN_NEVER_FIT"
            ? describeAdmissionReason(w.reason)
            : `${ordinal(w.position)} in pool ${pool.path}'s ${QUEUE_WORDS[w.queue]} queue: ${describeAdmissionReason(w.reason)}`;
        for (const t of snapshot.members.get(w.gang.id)?.tasks ?? []) {
          const note = noteChange(t, w.reason.code, message);
          if (note) notes.push(note);
        }
      }
    }
    for (const t of snapshot.stranded) {
      const note = noteChange(
        t,
        "POOL_NOT_LEAF",
        "its pool has child pools now, and only leaf pools admit tasks; a job cannot move: delete the child pools or resubmit the job to a leaf pool",
      );
      if (note) notes.push(note);
    }
    stage.admit(admitted);
    if (admitted.length > 0) this.opts.onAdmitted?.();
    const decided = performance.now();
    await this.opts.writer.write({ changes: notes });
    this.opts.log.debug(
      {
        pending: pending.length,
        admitted: admitted.length,
        decideMs: Math.round(decided - started),
        writeMs: Math.round(performance.now() - decided),
      },
      "admission round",
    );
  }

  /**
   * READY rows are not written any more (admitted tasks wait in memory): any
   * left by a leader of an older version go back to PENDING, to be admitted
   * again.
   */
  private async requeueLeftOver(): Promise<void> {
    const left = await this.opts.gateway.admissionReads.readyRows();
    if (left.length === 0) return;
    const at = this.now();
    const message = "admitted by an earlier leader, which kept it in memory: back in line";
    await this.opts.writer.write({
      changes: left.map((t) => ({
        taskId: t.taskId,
        jobId: t.jobId,
        instanceId: t.instanceId,
        expect: { state: "READY", runId: t.runId },
        state: "PENDING",
        reason: "REQUEUED",
        message,
        events: [
          {
            runId: t.runId,
            clusterTaskId: null,
            previousState: "READY",
            state: "PENDING",
            source: EVENT_SOURCES.resourceManager,
            reason: "REQUEUED",
            message,
            hostname: null,
            agentId: null,
            at,
          },
        ],
      })),
    });
  }
}

/** The admission's event, written with the run's LAUNCHING (its row never said READY). */
export function admittedEvent(t: AdmittedTask): TaskChange["events"][number] {
  return {
    runId: t.row.runId,
    clusterTaskId: null,
    previousState: "PENDING",
    state: "READY",
    source: EVENT_SOURCES.resourceManager,
    reason: ADMITTED_REASON,
    message: t.message,
    hostname: null,
    agentId: null,
    at: t.admittedAt,
  };
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13
      ? "th"
      : n % 10 === 1
        ? "st"
        : n % 10 === 2
          ? "nd"
          : n % 10 === 3
            ? "rd"
            : "th";
  return `${n}${suffix}`;
}
