/**
 * Status updates from the cluster, in batches (the job manager's event
 * handler). Updates that arrive within a few milliseconds are decided and
 * written together, then all acknowledged (the host manager acks each once
 * its promise resolves, so an update is never acknowledged before its write
 * committed):
 *
 *   updates ─▶ their runs by cluster task id (one query)
 *     ─▶ a task's updates in one batch fold into one change: one row
 *        write, an event per update (STARTING then RUNNING is one UPDATE
 *        of the row to RUNNING and two task_events rows)
 *     ─▶ per update: engine `applyMesosUpdate` (MOVE | IGNORE | REFUSE), and
 *        the run's health (run-health.ts; a check result is a RUNNING again)
 *     ─▶ a run that ended, or whose goal moved: `driveTask` from there
 *        (a retry, a restart after backoff, deletion) in the same change
 *     ─▶ the task writer (one transaction with the others' changes)
 *     ─▶ rows that moved meanwhile: read again and decided again
 *     ─▶ updates about runs already ended or unknown (ended-runs.ts):
 *        acknowledged quietly, the master asked again when it may be stale,
 *        killed when its latest state says it runs and nobody wants it
 *
 * TASK_STARTING is the one update acknowledged when it is queued, before its
 * write: the cluster sends a task's next update only after the previous one
 * was acknowledged, so waiting for STARTING's commit would keep its RUNNING
 * out of the batch and cost every launch a row write and a transaction of
 * its own. Acknowledged early, and held in the queue (up to
 * `startingHoldMs`) until its RUNNING arrives, the two are written as one
 * change; the launcher is told the run reported, so it writes no LAUNCHED
 * meanwhile. Nothing recovery needs is lost: a STARTING whose write fails
 * (or whose leader dies first) leaves the row LAUNCHING or LAUNCHED, the
 * RUNNING that follows (or reconciliation after a failover) moves it on, and
 * only the STARTING event is missing from the timeline. Every other update,
 * RUNNING included, is acknowledged only after its commit.
 */
import {
  applyMesosUpdate,
  describeMaxRunningHold,
  endOfKilledRun,
  failureCountAfter,
  isTerminalTaskState,
  MAX_RUNNING_INSTANCES_REASON,
  MESOS_TASK_STATES,
  type MesosTaskState,
  taskConfigFor,
  taskPolicyFor,
} from "@peloton/engine";
import type { StorageGateway, TaskChange, TaskRunRow } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import type { StatusHandler, TaskStatusUpdate } from "../hostmgr/host-adapter.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import type { KillOrder } from "../taskwriter/kill-order.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import { UpdateSummary, verdictForEndedRun } from "./ended-runs.ts";
import { type DriveStart, driveTask, startOf } from "./goal-state.ts";
import { withHealth } from "./run-health.ts";
import { markVictimsBack } from "./victims-back.ts";

export interface StatusUpdatesOptions {
  gateway: StorageGateway;
  writer: TaskWriter;
  configs: JobConfigs;
  log: Logger;
  /** Kills a run the database does not want (an orphan the master says still runs). */
  kill: (order: ClusterRun) => void;
  /**
   * Asks the cluster for the latest state of these runs (an up-report for a
   * run we have ended may be an old update sent again); the answers come
   * back as reconciliation updates. Without it such runs are left alone.
   */
  reconcile?: (runs: readonly ClusterRun[]) => void;
  /**
   * A run reported TASK_STARTING (acknowledged, its write held for its
   * RUNNING): the launcher need not write LAUNCHED for it.
   */
  onStarting?: (clusterTaskId: string) => void;
  /** Kill orders the decisions produced (a RUNNING report for a task that should stop). */
  onKills?: (orders: readonly KillOrder[]) => void;
  windowMs?: number;
  maxBatch?: number;
  /**
   * How long an acknowledged TASK_STARTING may wait in the queue for its
   * run's next update before it is written alone. Default 500 ms: a run's
   * RUNNING follows its STARTING within one round trip to the cluster, but
   * on a loaded machine that trip took 200-1,000 ms (measured in
   * e2e.batch_10k_agents_500), and the write of a STARTING changes nothing
   * anyone waits for.
   */
  startingHoldMs?: number;
  now?: () => Date;
  /** How often the counts of quietly acknowledged updates are logged. Default 5 s. */
  summaryMs?: number;
}

/** A run as the cluster knows it. */
export interface ClusterRun {
  clusterTaskId: string;
  agentId: string | null;
}

interface Queued {
  update: TaskStatusUpdate;
  resolve: () => void;
  reject: (err: unknown) => void;
  /** An acknowledged TASK_STARTING: held until this time (ms, `performance.now()`) for its RUNNING. */
  holdUntil?: number;
}

const MAX_ROUNDS = 4;
const noop = () => undefined;

/**
 * An agent's TASK_STARTING: a stage recovery does not need (see the file
 * comment). Reconciliation answers are the master's restatements, not the
 * agent's stream, and keep the usual order: recorded, then acknowledged.
 */
const acknowledgedEarly = (u: TaskStatusUpdate) =>
  u.clusterState === "TASK_STARTING" && !u.reconciliation;
const MAX_BATCHES_IN_FLIGHT = 2;
const isMesosState = (s: string): s is MesosTaskState =>
  (MESOS_TASK_STATES as readonly string[]).includes(s);

export class StatusUpdates {
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** When `timer` fires (ms, `performance.now()`). */
  private timerAt = 0;
  /** Batches being decided and written; two, so one's reads overlap the other's write. */
  private flushing = 0;
  /** Cluster task ids of the batches in flight. */
  private readonly busy = new Set<string>();
  private readonly windowMs: number;
  private readonly maxBatch: number;
  private readonly startingHoldMs: number;
  private readonly now: () => Date;
  /** Counts of what was acknowledged without a change, logged now and then. */
  readonly summary: UpdateSummary;

  constructor(private readonly opts: StatusUpdatesOptions) {
    this.windowMs = opts.windowMs ?? 5;
    this.maxBatch = opts.maxBatch ?? 5_000;
    this.startingHoldMs = opts.startingHoldMs ?? 500;
    this.now = opts.now ?? (() => new Date());
    this.summary = new UpdateSummary(opts.log, opts.summaryMs);
  }

  /** The host manager's status handler. */
  readonly handle: StatusHandler = (update) => {
    if (acknowledgedEarly(update)) {
      // See the file comment: its outcome is logged, not handed back.
      this.enqueue({
        update,
        resolve: noop,
        reject: (err) =>
          this.opts.log.debug(
            { err: String(err), taskId: update.taskId },
            "an acknowledged TASK_STARTING was not recorded; the next update moves the task on",
          ),
        holdUntil: performance.now() + this.startingHoldMs,
      });
      this.opts.onStarting?.(update.taskId);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => this.enqueue({ update, resolve, reject }));
  };

  private enqueue(queued: Queued): void {
    this.queue.push(queued);
    if (this.queue.length >= this.maxBatch) this.kick(0);
    else this.kick(this.windowMs);
  }

  /**
   * Two batches may be in flight, never with the same task: an agent's
   * updates of a task come one at a time (the next after the previous was
   * acknowledged), but the master's own (reconciliation answers) do not
   * wait, and the later batch could read the row first and write first.
   */
  private kick(delay: number): void {
    if (this.flushing >= MAX_BATCHES_IN_FLIGHT || this.queue.length === 0) return;
    const at = performance.now() + delay;
    // A timer due no later stays; one due later (a hold) is brought forward.
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const { batch, heldUntil } = this.take();
      // All queued are of tasks in flight (that batch's end kicks again) or
      // STARTINGs waiting for their RUNNING (kicked again when the first is due).
      if (batch.length === 0) {
        if (heldUntil !== undefined)
          this.kick(Math.max(1, Math.ceil(heldUntil - performance.now())));
        return;
      }
      const tasks = new Set(batch.map((q) => q.update.taskId));
      for (const t of tasks) this.busy.add(t);
      this.flushing++;
      void this.flush(batch).finally(() => {
        for (const t of tasks) this.busy.delete(t);
        this.flushing--;
        this.kick(this.queue.length >= this.maxBatch ? 0 : this.windowMs);
      });
      this.kick(this.windowMs);
    }, delay);
  }

  /**
   * Queued updates in arrival order, up to the batch size, but none of a
   * task in flight: that one waits, and so does every later update of its
   * task, so a task's updates are decided and written in arrival order. An
   * acknowledged STARTING with no later update of its task queued waits too,
   * until its hold ends, so its RUNNING can join it (unless the queue is
   * full: then nothing is held). `heldUntil`: when the first such hold ends.
   */
  private take(): { batch: Queued[]; heldUntil: number | undefined } {
    const batch: Queued[] = [];
    const rest: Queued[] = [];
    const held = new Set(this.busy);
    const now = performance.now();
    const mayHold = this.queue.length < this.maxBatch;
    /** Queued updates per task still ahead in this pass. */
    const ahead = new Map<string, number>();
    for (const q of this.queue) ahead.set(q.update.taskId, (ahead.get(q.update.taskId) ?? 0) + 1);
    let heldUntil: number | undefined;
    for (const q of this.queue) {
      const task = q.update.taskId;
      const later = (ahead.get(task) ?? 1) - 1;
      ahead.set(task, later);
      const waitsForRunning =
        mayHold && q.holdUntil !== undefined && q.holdUntil > now && later === 0;
      if (batch.length < this.maxBatch && !held.has(task) && !waitsForRunning) batch.push(q);
      else {
        if (waitsForRunning) heldUntil = Math.min(heldUntil ?? Infinity, q.holdUntil!);
        held.add(task);
        rest.push(q);
      }
    }
    this.queue = rest;
    return { batch, heldUntil };
  }

  private async flush(batch: readonly Queued[]): Promise<void> {
    try {
      await this.record(batch.map((q) => q.update));
      for (const q of batch) q.resolve();
    } catch (err) {
      // Not acknowledged: the cluster sends them again.
      for (const q of batch) q.reject(err);
    }
  }

  /** Decides and writes a batch, deciding again for rows that moved meanwhile. */
  private async record(updates: readonly TaskStatusUpdate[]): Promise<void> {
    let todo = updates;
    for (let round = 1; todo.length > 0; round++) {
      const rows = await this.opts.gateway.taskRuns.byClusterIds([
        ...new Set(todo.map((u) => u.taskId)),
      ]);
      const plan = await this.decide(todo, rows);
      const outcome = await this.opts.writer.write({
        changes: plan.changes,
        // A preemption victim whose run reached RUNNING came back: marked in the same transaction.
        ...(plan.changes.length > 0 ? { alongside: markVictimsBack } : {}),
      });
      for (const o of plan.orphans) this.opts.kill(o);
      this.summary.note("orphansKilled", plan.orphans.length);
      if (plan.recheck.length > 0 && this.opts.reconcile) {
        this.opts.reconcile(plan.recheck);
        this.summary.note("rechecked", plan.recheck.length);
      }
      if (plan.kills.length > 0) this.opts.onKills?.(plan.kills);
      if (outcome.missed.length === 0) return;
      if (round >= MAX_ROUNDS) {
        this.opts.log.warn(
          { tasks: outcome.missed.map((c) => c.taskId) },
          "status updates kept racing with other writes; they will be re-sent",
        );
        throw new Error("status updates not recorded: their tasks kept changing");
      }
      const missed = new Set(outcome.missed.map((c) => c.taskId));
      const byCluster = new Map(rows.map((r) => [r.clusterTaskId, r.taskId]));
      todo = todo.filter((u) => missed.has(byCluster.get(u.taskId) ?? ""));
    }
  }

  private async decide(
    updates: readonly TaskStatusUpdate[],
    rows: readonly TaskRunRow[],
  ): Promise<{
    changes: TaskChange[];
    kills: KillOrder[];
    orphans: ClusterRun[];
    recheck: ClusterRun[];
  }> {
    const byCluster = new Map(rows.map((r) => [r.clusterTaskId, r]));
    const configs = await this.opts.configs.get(rows.map((r) => r.jobId));
    const moved = new Map<string, { row: TaskRunRow; start: DriveStart }>();
    const orphans = new Map<string, ClusterRun>();
    const recheck = new Map<string, ClusterRun>();
    /** A run the database has ended or does not know: see ended-runs.ts. */
    const endedOrUnknown = (u: TaskStatusUpdate, known: boolean) => {
      const run = { clusterTaskId: u.taskId, agentId: u.hostId };
      const verdict = verdictForEndedRun(u);
      this.opts.log.debug(
        { taskId: u.taskId, state: u.clusterState, known, verdict },
        "status update about an ended or unknown run",
      );
      if (verdict === "KILL") orphans.set(u.taskId, run);
      else if (verdict === "RECHECK") recheck.set(u.taskId, run);
      else if (isTerminalTaskState(u.state))
        this.summary.note(known ? "alreadyEnded" : "unknownEnded");
    };
    for (const u of updates) {
      if (!isMesosState(u.clusterState)) {
        this.opts.log.warn({ taskId: u.taskId, state: u.clusterState }, "unknown cluster state");
        continue;
      }
      const row = byCluster.get(u.taskId);
      if (row === undefined) {
        endedOrUnknown(u, false);
        continue;
      }
      const current = moved.get(row.taskId);
      const start = current?.start ?? startOf(row);
      const outcome = applyMesosUpdate(start.state, {
        state: u.clusterState,
        reason: u.reason ?? undefined,
      });
      const config = configs.get(row.jobId);
      const task = config ? taskConfigFor(config, row.instanceId) : undefined;
      if (outcome.kind === "IGNORE") {
        if (outcome.why === "RUN_ENDED") endedOrUnknown(u, true);
        if (outcome.why === "EARLIER_STAGE") this.summary.note("earlierStage");
        if (outcome.why === "REPEATED_LAUNCH") this.summary.note("repeatedLaunch");
        // A health check's result comes as TASK_RUNNING again: only the run's health moves.
        if (outcome.why === "SAME_STATE" && u.healthy !== null) {
          const healthier = withHealth(start, row, u, start.state, task);
          if (healthier !== start) moved.set(row.taskId, { row, start: healthier });
        }
        continue;
      }
      if (outcome.kind === "REFUSE") {
        this.opts.log.warn(
          { taskId: u.taskId, from: start.state, to: outcome.refusal.to },
          "status update refused by the task lifecycle",
        );
        continue;
      }
      // A run killed for its deadline or a restart ends with that reason, whatever the kill reports.
      const end = isTerminalTaskState(outcome.to)
        ? endOfKilledRun(start.state, start.reason, outcome.reason, row.restartRequestedBy)
        : { reason: outcome.reason, message: null };
      const next = moveTo(start, row, u, outcome.to, end.reason, end.message);
      moved.set(row.taskId, { row, start: withHealth(next, row, u, start.state, task) });
    }
    const now = this.now();
    const changes: TaskChange[] = [];
    const kills: KillOrder[] = [];
    for (const { row, start } of moved.values()) {
      const config = configs.get(row.jobId);
      // A new run of a job with sla.maximumRunningInstances waits INITIALIZED:
      // the goal-state loop queues it when the job has room (running-instance-room.ts).
      const max = config?.sla.maximumRunningInstances ?? 0;
      const hold =
        max > 0
          ? { reason: MAX_RUNNING_INSTANCES_REASON, message: describeMaxRunningHold(max) }
          : undefined;
      const drive = config
        ? driveTask(row, taskPolicyFor(config, row.instanceId), now, {
            start,
            ...(hold ? { hold } : {}),
          })
        : null;
      const change = drive?.change ?? plainChange(row, start);
      changes.push(change);
      if (drive?.kill) kills.push(drive.kill);
    }
    return { changes, kills, orphans: [...orphans.values()], recheck: [...recheck.values()] };
  }
}

/** The row after the cluster's report: its state, times, failure count and event. */
function moveTo(
  start: DriveStart,
  row: TaskRunRow,
  u: TaskStatusUpdate,
  to: DriveStart["state"],
  reason: string,
  /** Ours, in place of the cluster's (a restart's end). */
  ownMessage: string | null = null,
): DriveStart {
  const ended = isTerminalTaskState(to);
  const message = ownMessage ?? u.message ?? `the cluster reports ${u.clusterState}`;
  return {
    ...start,
    state: to,
    reason,
    message,
    failureCount: ended
      ? failureCountAfter(start.failureCount, {
          from: start.state,
          ended: to,
          goalState: row.goalState,
          reason,
        })
      : start.failureCount,
    set: {
      ...start.set,
      ...(to === "RUNNING" ? { startedAt: u.at } : {}),
      ...(ended ? { finishedAt: u.at } : {}),
      ...(u.hostname && row.hostname === null ? { hostname: u.hostname } : {}),
      ...(u.hostId && row.agentId === null ? { agentId: u.hostId } : {}),
    },
    events: [
      ...start.events,
      {
        runId: start.runId,
        clusterTaskId: u.taskId,
        previousState: start.state,
        state: to,
        source: EVENT_SOURCES.hostManager,
        reason,
        message,
        hostname: u.hostname ?? row.hostname,
        agentId: u.hostId ?? row.agentId,
        at: u.at,
      },
    ],
  };
}

/** The report alone, when no config is at hand to decide what follows. */
function plainChange(row: TaskRunRow, start: DriveStart): TaskChange {
  return {
    taskId: row.taskId,
    jobId: row.jobId,
    instanceId: row.instanceId,
    expect: { state: row.state, runId: row.runId },
    state: start.state,
    reason: start.reason,
    message: start.message,
    set: { ...start.set, failureCount: start.failureCount },
    events: start.events,
  };
}
