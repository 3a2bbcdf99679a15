/**
 * The job manager's goal-state loop (leader only). It acts when intent
 * moves (a job's version changed: stop, start, restart, delete, scale), when
 * a new run's backoff ends, and on a period for what a crash may have left
 * half-done:
 *
 *   jobs whose version moved ─▶ their tasks that need a decision ─┐
 *   new runs due to be queued (INITIALIZED, backoff over) ─────────┼─▶ driveTask
 *                                                                  ▼
 *        task writer (one transaction) ─▶ kills for the runs now KILLING
 *   runs stuck KILLING ─▶ kill sent again;  stuck LAUNCHING ─▶ reconcile
 *   runs past their job's sla.maxRunningTime ─▶ goal KILLED, killed (deadlines.ts)
 *   hosts changed ─▶ DAEMON jobs: one instance per eligible host
 */
import { STARTING_TASK_STATES, STOPPING_TASK_STATES, taskPolicyFor } from "@peloton/engine";
import type { StorageGateway, TaskChange, TaskRunRow } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop, type SchedulerLoop } from "../common/loop.ts";
import type { HostAdapter } from "../hostmgr/host-adapter.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import type { KillOrder } from "../taskwriter/kill-order.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import { reconcileDaemons } from "./daemons.ts";
import { deadlineKill } from "./deadlines.ts";
import { driveTask } from "./goal-state.ts";
import type { Killer } from "./kills.ts";
import { RunningInstanceRoom } from "./running-instance-room.ts";

export interface GoalStateLoopOptions {
  gateway: StorageGateway;
  writer: TaskWriter;
  configs: JobConfigs;
  killer: Killer;
  adapter: () => Pick<HostAdapter, "reconcile"> | undefined;
  log: Logger;
  /** Default 2 s. */
  periodMs?: number;
  /** How often every active job is looked at again. Default 30 s. */
  fullScanMs?: number;
  /** A kill not confirmed after this is sent again; a launch not reported is reconciled. Default 30 s. */
  clusterTimeoutMs?: number;
  now?: () => Date;
}

const DUE_BATCH = 10_000;
/** Tasks decided per round: a stop of a million-task job goes in rounds of this many. */
const ROUND_TASKS = 20_000;
const JOB_CHUNK = 200;

export class GoalStateLoop implements SchedulerLoop {
  readonly name = "job-manager";
  private readonly loop: PeriodicLoop;
  /** The intent version each job was last driven at. */
  private readonly seen = new Map<string, number>();
  private readonly dirty = new Set<string>();
  private allDirty = true;
  private hostsChanged = true;
  private lastDaemonRound = 0;
  private lastFullScan = 0;
  private lastChase = 0;
  private lastDeadlineScan = 0;
  /** When the next running run reaches its sla.maxRunningTime (null: none has one). */
  private nextDeadline: Date | null = null;
  private wakeTimer: NodeJS.Timeout | undefined;
  private readonly resent = new Map<string, number>();
  private readonly now: () => Date;

  constructor(private readonly opts: GoalStateLoopOptions) {
    this.now = opts.now ?? (() => new Date());
    this.loop = new PeriodicLoop({
      name: this.name,
      periodMs: opts.periodMs ?? 2_000,
      log: opts.log,
      tick: () => this.tick(),
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    clearTimeout(this.wakeTimer);
    await this.loop.stop();
  }

  kick(): void {
    this.loop.kick();
  }

  /** Jobs announced as changed (null: too many to list): their versions are checked next tick. */
  noteJobs(keys: readonly string[] | null): void {
    if (keys === null) this.allDirty = true;
    else for (const k of keys) this.dirty.add(k);
    this.kick();
  }

  /** Hosts came, went or changed state: DAEMON jobs are reconciled next tick. */
  noteHosts(): void {
    this.hostsChanged = true;
    this.kick();
  }

  private async tick(): Promise<void> {
    const now = this.now();
    const full =
      this.allDirty || now.getTime() - this.lastFullScan >= (this.opts.fullScanMs ?? 30_000);
    // Daemon jobs follow the hosts, at most once a second (hosts announce every task landing).
    if ((this.hostsChanged && now.getTime() - this.lastDaemonRound >= 1_000) || full) {
      this.hostsChanged = false;
      this.lastDaemonRound = now.getTime();
      await reconcileDaemons(this.opts.gateway, this.opts.configs, this.opts.log);
    }
    const changedJobs = await this.jobsWithNewIntent(full);
    const rows: TaskRunRow[] = [];
    // Jobs with more tasks to decide than a round takes stay "changed" for the next round.
    const unfinished = new Set<string>();
    for (let i = 0; i < changedJobs.length; i += JOB_CHUNK) {
      const ids = changedJobs.slice(i, i + JOB_CHUNK).map((j) => j.id);
      if (rows.length >= ROUND_TASKS) {
        for (const id of ids) unfinished.add(id);
        continue;
      }
      const found = await this.opts.gateway.taskRuns.needingDecision(
        ids,
        ROUND_TASKS - rows.length,
      );
      rows.push(...found);
      if (rows.length >= ROUND_TASKS) for (const id of ids) unfinished.add(id);
    }
    rows.push(...(await this.opts.gateway.taskRuns.dueToQueue(now, DUE_BATCH)));
    const { applied, missedJobs } = await this.drive(rows, now);
    // Deadlines are looked for once a second at most: kicked ticks come with every commit.
    if (now.getTime() - this.lastDeadlineScan >= 1_000) {
      this.lastDeadlineScan = now.getTime();
      await this.killPastDeadline(now);
      this.nextDeadline = await this.opts.gateway.taskRuns.nextDeadline();
    }
    // Rows that moved meanwhile are decided again on fresh data next round.
    for (const id of missedJobs) {
      unfinished.add(id);
      this.dirty.add(id);
    }
    // Only now are these versions handled: a failed tick sees them again.
    for (const j of changedJobs) if (!unfinished.has(j.id)) this.seen.set(j.id, j.version);
    // More of them next round, at once, as long as rounds get somewhere.
    if (unfinished.size > 0 && applied > 0) {
      for (const id of unfinished) this.dirty.add(id);
      this.kick();
    }
    // Kicked ticks come with every commit on a busy cluster; the chase (two
    // scans of the runs waiting on the cluster) needs no more than the period.
    const timeout = this.opts.clusterTimeoutMs ?? 30_000;
    if (now.getTime() - this.lastChase >= Math.min(this.opts.periodMs ?? 2_000, timeout / 4)) {
      this.lastChase = now.getTime();
      await this.chaseTheCluster(now, timeout);
    }
    await this.scheduleWake(now);
  }

  /** The jobs whose intent version differs from the one last driven. */
  private async jobsWithNewIntent(full: boolean): Promise<{ id: string; version: number }[]> {
    let candidates: { id: string; version: number }[];
    if (full) {
      this.allDirty = false;
      this.dirty.clear();
      this.lastFullScan = this.now().getTime();
      candidates = await this.opts.gateway.jobs.active();
      // A full scan decides every active job again: what a crash left half-done is found.
      return candidates;
    }
    if (this.dirty.size === 0) return [];
    const ids = [...this.dirty];
    this.dirty.clear();
    candidates = await this.opts.gateway.jobs.versions(ids);
    return candidates.filter((j) => this.seen.get(j.id) !== j.version);
  }

  /** Decides and writes; how many changes were applied, and the jobs of those missed. */
  private async drive(
    rows: readonly TaskRunRow[],
    now: Date,
  ): Promise<{ applied: number; missedJobs: Set<string> }> {
    const unique = new Map(rows.map((r) => [r.taskId, r]));
    if (unique.size === 0) return { applied: 0, missedJobs: new Set() };
    const configs = await this.opts.configs.get([...unique.values()].map((r) => r.jobId));
    const changes: TaskChange[] = [];
    const kills = new Map<string, KillOrder>();
    const room = await RunningInstanceRoom.of(this.opts.gateway, configs, unique.values());
    // Lowest instances first, so those held back by a limit are the highest.
    const ordered = [...unique.values()].sort(
      (a, b) => a.jobId.localeCompare(b.jobId) || a.instanceId - b.instanceId,
    );
    for (const row of ordered) {
      const config = configs.get(row.jobId);
      if (!config) continue;
      const policy = taskPolicyFor(config, row.instanceId);
      let d = driveTask(row, policy, now);
      // sla.maximumRunningInstances: queued only while the job has room.
      if (d.change?.state === "PENDING" && !room.take(row.jobId)) {
        const hold = room.holdFor(row.jobId);
        if (hold) d = driveTask(row, policy, now, { hold });
      }
      if (!d.change) continue;
      changes.push(d.change);
      if (d.kill) kills.set(row.taskId, d.kill);
    }
    const outcome = await this.opts.writer.write({ changes });
    await this.opts.killer.send(
      outcome.applied.flatMap((c) => {
        const k = kills.get(c.taskId);
        return k ? [k] : [];
      }),
    );
    return {
      applied: outcome.applied.length,
      missedJobs: new Set(outcome.missed.map((c) => c.jobId)),
    };
  }

  /**
   * Runs past their job's sla.maxRunningTime: goal KILLED and KILLING with
   * the deadline's reason and event, one guarded change each; the kills go
   * out once written. A run that moved meanwhile is found again next tick.
   */
  private async killPastDeadline(now: Date): Promise<void> {
    const due = await this.opts.gateway.taskRuns.pastDeadline(now, DUE_BATCH);
    const decided = due.flatMap((run) => {
      const d = deadlineKill(run, now);
      return d ? [d] : [];
    });
    if (decided.length === 0) return;
    const kills = new Map(decided.flatMap((d) => (d.kill ? [[d.change.taskId, d.kill]] : [])));
    const outcome = await this.opts.writer.write({ changes: decided.map((d) => d.change) });
    await this.opts.killer.send(
      outcome.applied.flatMap((c) => {
        const k = kills.get(c.taskId);
        return k ? [k] : [];
      }),
    );
  }

  /** Kills not confirmed are sent again; launches never reported are reconciled. */
  private async chaseTheCluster(now: Date, timeout: number): Promise<void> {
    const before = new Date(now.getTime() - timeout);
    const stopping = await this.opts.gateway.taskRuns.waitingOnCluster(
      STOPPING_TASK_STATES,
      before,
      1_000,
    );
    // Each run is chased once per timeout, not on every tick.
    const due = (rows: TaskRunRow[]) => {
      const out = rows.filter(
        (r) =>
          r.clusterTaskId !== null && now.getTime() - (this.resent.get(r.taskId) ?? 0) >= timeout,
      );
      for (const r of out) this.resent.set(r.taskId, now.getTime());
      return out;
    };
    await this.opts.killer.send(
      due(stopping).map((r) => ({
        taskId: r.taskId,
        jobId: r.jobId,
        instanceId: r.instanceId,
        clusterTaskId: r.clusterTaskId!,
        agentId: r.agentId,
      })),
    );
    const launching = due(
      await this.opts.gateway.taskRuns.waitingOnCluster(STARTING_TASK_STATES, before, 1_000),
    );
    const adapter = this.opts.adapter();
    if (adapter && launching.length > 0)
      await adapter
        .reconcile(
          launching.flatMap((r) =>
            r.clusterTaskId
              ? [{ taskId: r.clusterTaskId, ...(r.agentId ? { hostId: r.agentId } : {}) }]
              : [],
          ),
        )
        .catch((err: unknown) => this.opts.log.warn({ err: String(err) }, "reconcile failed"));
    if (this.resent.size > 10_000) this.resent.clear();
  }

  /** Wakes up when the next new run's backoff ends, or the next run's deadline comes. */
  private async scheduleWake(now: Date): Promise<void> {
    // A deadline already passed is handled by the scan; only a future one sets the timer.
    const deadline =
      this.nextDeadline !== null && this.nextDeadline > now ? this.nextDeadline : null;
    const times = [await this.opts.gateway.taskRuns.nextNotBefore(), deadline].filter(
      (t): t is Date => t !== null,
    );
    const next = times.length === 0 ? null : new Date(Math.min(...times.map((t) => t.getTime())));
    clearTimeout(this.wakeTimer);
    if (next === null) return;
    const delay = Math.max(10, next.getTime() - now.getTime());
    this.wakeTimer = setTimeout(() => this.kick(), Math.min(delay, 60_000));
  }
}
