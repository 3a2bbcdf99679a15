/**
 * The one writer of task state changes on the leader. Every loop (status
 * updates, admission, placement, goal states) hands it changes; those that
 * arrive within a few milliseconds of each other are written together in
 * one transaction:
 *
 *   guarded bulk UPDATE of the task rows ─▶ bulk INSERT of their events
 *     ─▶ job task counts (one UPDATE) ─▶ job states derived, written if moved
 *     ─▶ writes the callers attached (volumes, …) ─▶ one announcement
 *
 * Coalescing means the cost per row, not per call, is what a busy cluster
 * pays. Two transactions may be in flight (two connections: PostgreSQL runs
 * each on its own core), never on the same task: a call whose tasks are
 * being written waits, and so does every later call touching them, so one
 * task's changes commit in the order they were handed in. The two meet only
 * on their jobs' rows (task counts), which they lock in id order. A call
 * with writes of its own but no declared task changes (the preemptor's
 * moves) touches tasks the writer cannot see, so it runs alone. A deadlock
 * or serialisation failure (against an API write) retries the whole
 * transaction. Each caller learns which of its changes were applied and
 * which were missed (their row had moved on).
 */
import { holdsAllocation } from "@peloton/engine";
import {
  type Change,
  type Clock,
  type ClockTimer,
  type Repositories,
  type StorageGateway,
  sleep,
  systemClock,
  type TaskChange,
} from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { jobStateWrites } from "./job-states.ts";

export interface WriteOutcome {
  applied: TaskChange[];
  missed: TaskChange[];
}

export interface WriteRequest {
  changes: readonly TaskChange[];
  /**
   * Other writes that must commit with these changes; `applied` are those of
   * this request's changes that found their row as expected.
   */
  alongside?: (tx: Repositories, applied: readonly TaskChange[]) => Promise<void>;
}

interface Pending {
  request: WriteRequest;
  resolve: (o: WriteOutcome) => void;
  reject: (err: unknown) => void;
}

export interface TaskWriterOptions {
  /** How long to collect calls before writing. Default 2 ms. */
  windowMs?: number;
  /** Transactions in flight at once. Default 2. */
  connections?: number;
  /**
   * Most changes in one transaction (a single larger call still goes whole).
   * Default 4,000: a burst is split over the two connections.
   */
  maxChanges?: number;
  /** The time written into job state changes. Default: now. */
  now?: () => Date;
  /** The settle window runs on this. Default: the process's own time. */
  clock?: Clock;
}

export type WrittenListener = (applied: readonly TaskChange[]) => void;

export class TaskWriter {
  private queue: Pending[] = [];
  private timer: ClockTimer | undefined;
  private readonly writing = new Set<Promise<void>>();
  /** Tasks of the transactions in flight. */
  private readonly busy = new Set<string>();
  private exclusiveInFlight = false;
  private readonly listeners = new Set<WrittenListener>();
  private readonly connections: number;
  private readonly windowMs: number;
  private readonly maxChanges: number;
  private readonly now: () => Date;
  private readonly clock: Clock;
  /** Rows written and transactions, for the benchmark's figures. */
  readonly stats = { transactions: 0, applied: 0, missed: 0, events: 0 };

  constructor(
    private readonly gateway: StorageGateway,
    private readonly log: Logger,
    opts: TaskWriterOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? 2;
    this.connections = opts.connections ?? 2;
    this.maxChanges = opts.maxChanges ?? 4_000;
    this.now = opts.now ?? (() => new Date());
    this.clock = opts.clock ?? systemClock;
  }

  /** Called after every commit with the changes it applied. */
  onWritten(fn: WrittenListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  write(request: WriteRequest): Promise<WriteOutcome> {
    if (request.changes.length === 0 && request.alongside === undefined)
      return Promise.resolve({ applied: [], missed: [] });
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when everything handed in so far is written. */
  async idle(): Promise<void> {
    while (this.queue.length > 0 || this.writing.size > 0 || this.timer) {
      await (this.writing.size > 0 ? Promise.race(this.writing) : sleep(this.clock, this.windowMs));
    }
  }

  private schedule(): void {
    if (this.timer || this.queue.length === 0) return;
    if (this.writing.size >= this.connections || this.exclusiveInFlight) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      const batch = this.take();
      // Everything queued waits for a transaction in flight, whose end schedules again.
      if (batch.length === 0) return;
      const tasks = batch.flatMap((p) => p.request.changes.map((c) => c.taskId));
      const exclusive = batch.some(isExclusive);
      for (const t of tasks) this.busy.add(t);
      if (exclusive) this.exclusiveInFlight = true;
      const writing: Promise<void> = this.flush(batch).finally(() => {
        this.writing.delete(writing);
        for (const t of tasks) this.busy.delete(t);
        if (exclusive) this.exclusiveInFlight = false;
        this.schedule();
      });
      this.writing.add(writing);
      this.schedule();
    }, this.windowMs);
  }

  /**
   * Takes calls up to the size limit, in order. A call waits when one of its
   * tasks is in flight, already in this batch, or held by an earlier call
   * that waits; an exclusive call waits for the transactions in flight, and
   * every call after it waits with it (or a busy cluster would starve it).
   */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const claimed = new Set(this.busy);
    let size = 0;
    let barrier = false;
    for (const p of this.queue) {
      const { changes } = p.request;
      const waits =
        barrier ||
        changes.some((c) => claimed.has(c.taskId)) ||
        (isExclusive(p) && this.writing.size > 0) ||
        (size > 0 && size + changes.length > this.maxChanges);
      for (const c of changes) claimed.add(c.taskId);
      if (waits && isExclusive(p)) barrier = true;
      if (waits) rest.push(p);
      else {
        size += changes.length;
        batch.push(p);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async flush(batch: Pending[]): Promise<void> {
    const changes = batch.flatMap((p) => p.request.changes);
    const started = this.clock.now();
    let outcome: WriteOutcome;
    try {
      outcome = await this.transact(batch, changes);
      this.log.debug(
        {
          changes: changes.length,
          missed: outcome.missed.length,
          calls: batch.length,
          ms: Math.round(this.clock.now() - started),
        },
        "task changes written",
      );
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    this.stats.transactions++;
    this.stats.applied += outcome.applied.length;
    this.stats.missed += outcome.missed.length;
    this.stats.events += outcome.applied.reduce((n, c) => n + c.events.length, 0);
    const applied = new Set(outcome.applied);
    for (const p of batch) {
      const mine = { applied: [] as TaskChange[], missed: [] as TaskChange[] };
      for (const c of p.request.changes) (applied.has(c) ? mine.applied : mine.missed).push(c);
      p.resolve(mine);
    }
    if (outcome.applied.length > 0)
      for (const fn of this.listeners) {
        try {
          fn(outcome.applied);
        } catch (err) {
          this.log.error({ err }, "task writer listener failed");
        }
      }
  }

  private async transact(batch: Pending[], changes: TaskChange[]): Promise<WriteOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.gateway.transaction(async (tx) => {
          const result = await tx.taskChanges.apply(changes);
          const jobs = await tx.jobs.addTaskCounts(result.countDeltas);
          await tx.jobs.writeStates(jobStateWrites(jobs, this.now()));
          const moved = new Set(result.applied);
          for (const p of batch)
            await p.request.alongside?.(
              tx,
              p.request.changes.filter((c) => moved.has(c)),
            );
          await tx.changes.announce(...announcementsOf(result.applied));
          return { applied: result.applied, missed: result.missed };
        });
      } catch (err) {
        if (attempt >= 4 || !isRetryable(err)) throw err;
        this.log.warn({ err: String(err), attempt }, "task write conflicted; retrying");
      }
    }
  }
}

/** A call with writes of its own but no declared task changes: it may touch any task. */
const isExclusive = (p: Pending) =>
  p.request.changes.length === 0 && p.request.alongside !== undefined;

/** Deadlocks and serialisation failures are worth a retry: the rows are fine, the timing was not. */
function isRetryable(err: unknown): boolean {
  const text = `${String(err)} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  return /deadlock detected|could not serialize|40P01|40001/.test(text);
}

/** One announcement for the batch: which instances, jobs, hosts and whether pools' usage moved. */
function announcementsOf(applied: readonly TaskChange[]): Change[] {
  if (applied.length === 0) return [];
  const tasks = new Set<string>();
  const jobs = new Set<string>();
  const hosts = new Set<string>();
  let usage = false;
  for (const c of applied) {
    tasks.add(`${c.jobId}/${c.instanceId}`);
    jobs.add(c.jobId);
    if (holdsAllocation(c.state) !== holdsAllocation(c.expect.state) || c.state === "PENDING")
      usage = true;
    for (const e of c.events) if (e.hostname) hosts.add(e.hostname);
  }
  const out: Change[] = [
    { topic: "tasks", keys: [...tasks] },
    { topic: "jobs", keys: [...jobs] },
  ];
  if (hosts.size > 0) out.push({ topic: "hosts", keys: [...hosts] });
  if (usage) out.push({ topic: "pools", keys: null });
  return out;
}
