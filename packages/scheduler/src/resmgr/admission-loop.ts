/**
 * The resource manager's admission loop (leader only), on a period and
 * whenever something changes what may run (a job submitted, a task ended,
 * a pool or a host changed):
 *
 *   entitlement per leaf pool (pool-entitlements) + what admitted tasks hold
 *     + PENDING tasks as gangs (admission-input)
 *     ─▶ engine `admit`: per pool, four queues by priority then arrival,
 *        no overtaking; each gang admitted whole or not at all
 *     ─▶ admitted: PENDING → READY (placement is kicked)
 *     ─▶ waiting: the reason and place in line on the task row, written only
 *        when it changed — "why pending" is always an answer from data;
 *        a gang that could never fit the hosts or the pool (CAN_NEVER_FIT)
 *        is set aside and the queue moves past it, every round anew
 */
import { type AdmissionQueue, admit, describeAdmissionReason } from "@peloton/engine";
import type { PendingTaskRow, StorageGateway, TaskChange } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop, type SchedulerLoop } from "../common/loop.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import { noteChange } from "../taskwriter/task-notes.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import { admissionSnapshot } from "./admission-input.ts";
import { loadClusterShape } from "./cluster-shape.ts";
import { leafPoolNumbers } from "./pool-entitlements.ts";

export interface AdmissionLoopOptions {
  gateway: StorageGateway;
  writer: TaskWriter;
  configs: JobConfigs;
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

/** Admitted tasks per call to the task writer (whole gangs: a chunk may run over). */
const ADMISSION_CHUNK = 1_000;

export class AdmissionLoop implements SchedulerLoop {
  readonly name = "resource-manager";
  private readonly loop: PeriodicLoop;
  private readonly now: () => Date;

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
    const { gateway } = this.opts;
    const started = performance.now();
    const pending = await gateway.admissionReads.pending();
    if (pending.length === 0) return;
    const [pools, held, configs, cluster] = await Promise.all([
      leafPoolNumbers(gateway),
      gateway.admissionReads.heldByPool(),
      this.opts.configs.get(pending.map((t) => t.jobId)),
      loadClusterShape(gateway),
    ]);
    const snapshot = admissionSnapshot(pending, pools, held, configs, cluster);
    const result = admit(snapshot.input);
    const now = this.now();
    // Admissions in order, a gang never split: placement starts on the first
    // chunk while the writer is still on the next ones.
    let chunk: TaskChange[] = [];
    const chunks = [chunk];
    // Why the others still wait: one call, after the admissions in line.
    const notes: TaskChange[] = [];
    let admitted = 0;
    for (const pool of result.pools) {
      for (const a of pool.admitted) {
        const message = `admitted in pool ${pool.path} (its ${QUEUE_WORDS[a.queue]} queue)`;
        if (chunk.length >= ADMISSION_CHUNK) {
          chunk = [];
          chunks.push(chunk);
        }
        for (const t of snapshot.members.get(a.gang.id)?.tasks ?? []) {
          chunk.push(admittedChange(t, message, now));
          admitted++;
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
    const decided = performance.now();
    await Promise.all([
      ...chunks.map(async (changes) => {
        const { applied } = await this.opts.writer.write({ changes });
        if (applied.length > 0) this.opts.onAdmitted?.();
      }),
      this.opts.writer.write({ changes: notes }),
    ]);
    this.opts.log.debug(
      {
        pending: pending.length,
        admitted,
        decideMs: Math.round(decided - started),
        writeMs: Math.round(performance.now() - decided),
      },
      "admission round",
    );
  }
}

function admittedChange(t: PendingTaskRow, message: string, at: Date): TaskChange {
  return {
    taskId: t.taskId,
    jobId: t.jobId,
    instanceId: t.instanceId,
    expect: { state: "PENDING", runId: t.runId },
    state: "READY",
    reason: "ADMITTED",
    message,
    events: [
      {
        runId: t.runId,
        clusterTaskId: null,
        previousState: "PENDING",
        state: "READY",
        source: EVENT_SOURCES.resourceManager,
        reason: "ADMITTED",
        message,
        hostname: null,
        agentId: null,
        at,
      },
    ],
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
