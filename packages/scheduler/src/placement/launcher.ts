/**
 * Sending placed tasks to the cluster: LAUNCHING written chunk by chunk
 * (hosts kept whole), each chunk's launches sent as soon as its write
 * committed while the next chunks are written, a bounded number of launch
 * calls in flight, and each outcome written: LAUNCHED (unless the cluster
 * reported on the run first), back to PENDING when nothing went out, or
 * reconciled when the cluster's answer was lost.
 */
import type { Repositories } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import type { HostAdapter, HostLease } from "../hostmgr/host-adapter.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import { launched, type Placed, refused, type SentRun, sentRunOf } from "./launch-outcomes.ts";

type LaunchResult = Awaited<ReturnType<HostAdapter["launch"]>>;

export interface LauncherOptions {
  writer: TaskWriter;
  log: Logger;
  /** Tasks per LAUNCHING write. Default 500. */
  chunkSize?: number;
  /**
   * Tasks in a round's first LAUNCHING write, each next write twice the one
   * before up to `chunkSize`. Default 50: nothing is launched before the
   * first write commits, and the first two writes of a big round, handed in
   * together, were one transaction of 1,000 changes (~90 ms in
   * e2e.batch_10k_agents_500) while the cluster had nothing to do.
   */
  firstChunkSize?: number;
  /** Launch calls in flight at once. Default 64. */
  launchConcurrency?: number;
  /**
   * LAUNCHING writes handed to the writer before the first of them has
   * committed. Default 2: on a busy cluster those writes share the writer
   * with the status updates of the runs already launched, and a round's
   * last launch went out only when every chunk before it had waited its
   * turn one after the other (in e2e.batch_10k_agents_500 that chain was
   * the round's critical path: 2 in flight took the round from ~2.07 to
   * ~1.99 s, alternated runs).
   */
  writesInFlight?: number;
  /** See PlacementLoopOptions.launchedAfterMs. Default 1 s. */
  launchedAfterMs?: number;
  now: () => Date;
}

export class Launcher {
  private readonly inFlight = new Set<Promise<void>>();
  private launching = 0;
  private readonly waiters: Array<() => void> = [];
  /** Launched runs whose LAUNCHED is not written yet → whether a later change already moved them on. */
  private readonly awaitingLaunched = new Map<string, boolean>();
  /** The same runs by cluster task id → their task id. */
  private readonly awaitingByClusterId = new Map<string, string>();

  constructor(private readonly opts: LauncherOptions) {
    // A run the cluster reported on before LAUNCHED was due (most of them, on
    // a quick cluster) would only make the guarded write miss: leave it out.
    opts.writer.onWritten((applied) => {
      for (const c of applied)
        if (c.expect.state === "LAUNCHING" && this.awaitingLaunched.has(c.taskId))
          this.awaitingLaunched.set(c.taskId, true);
    });
  }

  /**
   * The cluster reported on this run before its change was written (a
   * STARTING the status updates hold for its RUNNING): it is past LAUNCHED.
   */
  reported(clusterTaskId: string): void {
    const taskId = this.awaitingByClusterId.get(clusterTaskId);
    if (taskId !== undefined && this.awaitingLaunched.has(taskId))
      this.awaitingLaunched.set(taskId, true);
  }

  /** Resolves when every launch sent so far has its outcome written. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Writes LAUNCHING chunk by chunk (hosts kept whole; small chunks first,
   * see `firstChunkSize`), `writesInFlight` chunks at a time, and sends each
   * chunk's launches as soon as its write committed, without waiting for
   * them before writing the next chunk.
   */
  async send(
    adapter: HostAdapter,
    byHost: Map<string, { lease: HostLease; items: Placed[] }>,
  ): Promise<void> {
    const chunkSize = this.opts.chunkSize ?? 500;
    let limit = Math.min(chunkSize, this.opts.firstChunkSize ?? 50);
    let chunk: { lease: HostLease; items: Placed[] }[] = [];
    let size = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      const hosts = chunk;
      chunk = [];
      size = 0;
      const pins = hosts.flatMap((h) => h.items.flatMap((i) => (i.volume ? [i.volume] : [])));
      const outcome = await this.opts.writer.write({
        changes: hosts.flatMap((h) => h.items.map((i) => i.change)),
        ...(pins.length > 0 ? { alongside: (tx: Repositories) => tx.volumes.pin(pins) } : {}),
      });
      const applied = new Set(outcome.applied.map((c) => c.taskId));
      for (const h of hosts) {
        const items = h.items.filter((i) => applied.has(i.row.taskId));
        if (items.length === 0) adapter.release([h.lease.leaseId]);
        else this.track(this.launchOnHost(adapter, h.lease, items));
      }
    };
    // Chunks handed to the writer and not yet committed; the oldest is waited for once there are enough.
    const writing: Promise<void>[] = [];
    const writesInFlight = this.opts.writesInFlight ?? 2;
    const write = () => {
      const written = flush();
      // Its failure is thrown where it is awaited, not reported meanwhile as unhandled.
      written.catch(() => undefined);
      writing.push(written);
    };
    try {
      for (const entry of byHost.values()) {
        chunk.push(entry);
        size += entry.items.length;
        if (size >= limit) {
          write();
          limit = Math.min(chunkSize, limit * 2);
          if (writing.length >= writesInFlight) await writing.shift();
        }
      }
      write();
    } finally {
      // A failed write stops the chunks after it; those already handed in still finish.
      await Promise.allSettled(writing);
    }
    await Promise.all(writing);
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** One lease's launch, then its outcome written (`recordOutcome`). */
  private async launchOnHost(
    adapter: HostAdapter,
    lease: HostLease,
    items: Placed[],
  ): Promise<void> {
    await this.slot();
    // From before the launch goes out: the cluster may report on a run before its answer arrives.
    for (const i of items) {
      this.awaitingLaunched.set(i.row.taskId, false);
      this.awaitingByClusterId.set(i.launch.taskId, i.row.taskId);
    }
    let result: LaunchResult;
    try {
      result = await adapter.launch(
        lease.leaseId,
        items.map((i) => i.launch),
      );
    } catch (err) {
      result = { ok: false, refusal: { code: "CLUSTER_ERROR", message: String(err) } };
    } finally {
      this.release();
    }
    const created = items.flatMap((i) => (i.launch.volume?.create ? [i.launch.volume.id] : []));
    // Returned, not awaited: this frame, and the placed tasks with it, end here. Through
    // the second before LAUNCHED the outcome keeps only the runs' ids, not a big round's
    // configs, launch requests and LAUNCHING changes.
    return this.recordOutcome(adapter, lease, items.map(sentRunOf), created, result);
  }

  /** LAUNCHED (unless the cluster reported first), a reconciliation, or back to PENDING. */
  private async recordOutcome(
    adapter: HostAdapter,
    lease: HostLease,
    runs: SentRun[],
    createdVolumes: string[],
    result: LaunchResult,
  ): Promise<void> {
    const now = this.opts.now();
    try {
      if (result.ok) {
        if (createdVolumes.length > 0)
          await this.opts.writer.write({
            changes: [],
            alongside: (tx: Repositories) => tx.volumes.markCreated(createdVolumes),
          });
        await new Promise((r) => setTimeout(r, this.opts.launchedAfterMs ?? 1_000));
        const due = runs.filter((r) => this.awaitingLaunched.get(r.taskId) === false);
        // Guarded on LAUNCHING: a run the cluster reported on meanwhile is left as it is.
        await this.opts.writer.write({ changes: due.map((r) => launched(r, now)) });
        return;
      }
      if (result.refusal.code === "CLUSTER_ERROR") {
        // It may or may not have gone out: the cluster says which (LOST makes a new run).
        this.opts.log.warn(
          { host: lease.hostname, refusal: result.refusal },
          "launch failed; reconciling",
        );
        await adapter
          .reconcile(runs.map((r) => ({ taskId: r.clusterTaskId, hostId: lease.hostId })))
          .catch(() => undefined);
        return;
      }
      // Back to PENDING: admission (kicked by the change) admits them again.
      const refusal = result.refusal;
      await this.opts.writer.write({ changes: runs.map((r) => refused(r, refusal, now)) });
    } catch (err) {
      this.opts.log.error({ err, host: lease.hostname }, "could not record the launch outcome");
    } finally {
      for (const r of runs) {
        this.awaitingLaunched.delete(r.taskId);
        this.awaitingByClusterId.delete(r.clusterTaskId);
      }
    }
  }

  private async slot(): Promise<void> {
    const limit = this.opts.launchConcurrency ?? 64;
    while (this.launching >= limit) await new Promise<void>((r) => this.waiters.push(r));
    this.launching++;
  }

  private release(): void {
    this.launching--;
    this.waiters.shift()?.();
  }
}
