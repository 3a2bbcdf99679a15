/**
 * The placement loop (leader only): admitted tasks onto hosts, then out to
 * the cluster through the host manager.
 *
 *   admitted tasks (a batch taken from admission, in memory; rows PENDING) ─┐
 *   every offered host, leased for the round (free resources and ports)
 *     + host states and totals, what runs where ─┴─▶ engine `placeTasks`
 *   unplaced ─▶ the reason on the row ("no host fits: 23 hosts lack 2 cpu"), or
 *              CAN_NEVER_PLACE when no change of allocation can place it
 *              ("this will never fit on these hosts: 3 hosts have no GPU");
 *              admission admits it again on its next round, and placement tries again
 *   placed, host by host in chunks:
 *     PENDING → LAUNCHING with host, agent, ports and cluster task id, and the
 *       admission's event before the placement's, written BEFORE the launch,
 *       so every status update finds its run and a new leader launches nothing twice
 *     ─▶ launch on the lease ─▶ LAUNCHING → LAUNCHED, unless the cluster has
 *                               reported on the run first (STARTING, RUNNING)
 *                            └▶ refused: back to PENDING with the refusal as reason
 *                            └▶ cluster error: left LAUNCHING and reconciled
 *   hosts leased but not used ─▶ released at once
 *
 * While one chunk's launch is on the wire the next chunk's write goes on,
 * so a big job flows to the cluster without waiting on itself.
 */
import {
  describePlacement,
  describeUnplaced,
  type JobConfig,
  type PlacementResult,
  placeTasks,
  type TaskPlacement,
  taskConfigFor,
  unplacedRowReason,
} from "@peloton/engine";
import type { ReadyTaskRow, StorageGateway, TaskChange, VolumePin } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop, type SchedulerLoop } from "../common/loop.ts";
import type { HostAdapter, HostLease } from "../hostmgr/host-adapter.ts";
import { admittedEvent } from "../resmgr/admission-loop.ts";
import type { AdmittedTask, AdmittedTasks } from "../resmgr/admitted-tasks.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import { configKey, type JobConfigs } from "../taskwriter/job-configs.ts";
import { noteChange } from "../taskwriter/task-notes.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import type { Placed } from "./launch-outcomes.ts";
import { Launcher } from "./launcher.ts";
import {
  type Occupancy,
  placementHosts,
  placementTasks,
  taskLabelsOnHosts,
} from "./placement-input.ts";
import { taskLaunchOf } from "./task-launch.ts";

export interface PlacementLoopOptions {
  gateway: StorageGateway;
  writer: TaskWriter;
  configs: JobConfigs;
  /** Admitted tasks waiting for a host (this term's memory). */
  admitted: AdmittedTasks;
  adapter: () => HostAdapter | undefined;
  log: Logger;
  /** Default 1 s. */
  periodMs?: number;
  /** Admitted tasks per round. Default 10,000. */
  batchSize?: number;
  /** Tasks per LAUNCHING write (hosts kept whole). Default 500. */
  chunkSize?: number;
  /** Launch calls in flight at once. Default 64. */
  launchConcurrency?: number;
  /**
   * LAUNCHED says "the cluster accepted it, no word from the run yet": it is
   * written this long after the launch, for runs the cluster has not reported
   * on by then (a run already STARTING or RUNNING has moved past it). Default 1 s.
   */
  launchedAfterMs?: number;
  now?: () => Date;
}

export class PlacementLoop implements SchedulerLoop {
  readonly name = "placement";
  private readonly loop: PeriodicLoop;
  private offset = 0;
  private readonly launcher: Launcher;
  private readonly now: () => Date;

  constructor(private readonly opts: PlacementLoopOptions) {
    this.now = opts.now ?? (() => new Date());
    this.launcher = new Launcher({
      writer: opts.writer,
      log: opts.log,
      ...(opts.chunkSize !== undefined ? { chunkSize: opts.chunkSize } : {}),
      ...(opts.launchConcurrency !== undefined
        ? { launchConcurrency: opts.launchConcurrency }
        : {}),
      ...(opts.launchedAfterMs !== undefined ? { launchedAfterMs: opts.launchedAfterMs } : {}),
      now: this.now,
    });
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

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.launcher.idle();
  }

  kick(): void {
    this.loop.kick();
  }

  /** The cluster reported on this run (by its cluster task id): no LAUNCHED for it. */
  reported(clusterTaskId: string): void {
    this.launcher.reported(clusterTaskId);
  }

  private async tick(): Promise<void> {
    const adapter = this.opts.adapter();
    if (adapter?.state !== "connected") return;
    const stage = this.opts.admitted;
    if (stage.waitingCount === 0) return;
    const taken = stage.take(this.opts.batchSize ?? 10_000);
    let placed = 0;
    try {
      placed = await this.placeAndLaunch(adapter, taken);
    } finally {
      // Written LAUNCHING, left unplaced or gone: admission decides on what is still PENDING.
      stage.done(taken.map((t) => t.row.taskId));
    }
    // More admitted tasks wait: go on at once.
    if (stage.waitingCount > 0 && placed > 0) this.kick();
  }

  /** One round over the tasks taken; resolves once their LAUNCHING is written (launches go on). */
  private async placeAndLaunch(
    adapter: HostAdapter,
    taken: readonly AdmittedTask[],
  ): Promise<number> {
    const started = performance.now();
    const admitted = new Map(taken.map((t) => [t.row.taskId, t]));
    // The rows as they are now: a task killed, or run anew, since its admission is left out.
    const ready = (await this.opts.gateway.placementReads.admitted([...admitted.keys()])).filter(
      (r) => admitted.get(r.taskId)?.row.runId === r.runId,
    );
    if (ready.length === 0) return 0;
    const offered = adapter.hosts();
    if (offered.length === 0) {
      // Offers are out (launched on, soon back) or there are no hosts at all: only
      // the second is worth saying, or every task would flap to "no hosts" between rounds.
      await this.noHostsAtAll(ready);
      return 0;
    }
    // Each run is placed and launched with the config version it was given (an update moves it).
    const configs = await this.opts.configs.forRuns(ready);
    const leases = adapter.acquire(offered.map((h) => h.hostname));
    let result: PlacementResult;
    try {
      result = await this.place(ready, configs, leases);
    } catch (err) {
      adapter.release(leases.map((l) => l.leaseId));
      throw err;
    }
    if (!result.ok) {
      adapter.release(leases.map((l) => l.leaseId));
      this.opts.log.error({ errors: result.errors }, "placement input refused");
      return 0;
    }
    this.offset = result.nextOffset;
    this.opts.log.debug(
      {
        admitted: ready.length,
        hosts: leases.length,
        placed: result.placements.length,
        ms: Math.round(performance.now() - started),
      },
      "placement round decided",
    );
    const now = this.now();
    const rowById = new Map(ready.map((r) => [r.taskId, r]));
    const notes = result.unplaced.flatMap((u) => {
      const row = rowById.get(u.taskId)!;
      const n = noteChange(row, unplacedRowReason(u), describeUnplaced(u));
      return n ? [n] : [];
    });
    const byHost = this.launchesByHost(result.placements, rowById, admitted, configs, leases, now);
    const used = new Set(byHost.keys());
    adapter.release(leases.filter((l) => !used.has(l.hostname)).map((l) => l.leaseId));
    await this.opts.writer.write({ changes: notes });
    await this.launcher.send(adapter, byHost);
    return result.placements.length;
  }

  /** When the cluster has no UP host, every admitted task says so. */
  private async noHostsAtAll(ready: readonly ReadyTaskRow[]): Promise<void> {
    const facts = await this.opts.gateway.placementReads.hostFacts();
    if (facts.some((f) => f.state === "UP")) return;
    const message = `no hosts to place on: the cluster has no UP host (${facts.length} known, none UP)`;
    await this.opts.writer.write({
      changes: ready.flatMap((r) => {
        const n = noteChange(r, "NO_HOSTS", message);
        return n ? [n] : [];
      }),
    });
  }

  private async place(
    ready: readonly ReadyTaskRow[],
    configs: ReadonlyMap<string, JobConfig>,
    leases: readonly HostLease[],
  ): Promise<PlacementResult> {
    const tasks = placementTasks(ready, configs);
    const { gateway } = this.opts;
    const anyTaskConstraint = tasks.some((t) => t.constraint !== undefined);
    const [facts, jobCounts, onHosts] = await Promise.all([
      gateway.placementReads.hostFacts(),
      gateway.placementReads.jobTasksOnHosts([...new Set(ready.map((r) => r.jobId))]),
      anyTaskConstraint ? gateway.placementReads.tasksOnHosts() : Promise.resolve([]),
    ]);
    const jobTasks = new Map<string, Record<string, number>>();
    for (const c of jobCounts) {
      const host = jobTasks.get(c.hostname) ?? {};
      host[c.jobId] = c.tasks;
      jobTasks.set(c.hostname, host);
    }
    const labelConfigs = await this.opts.configs.get(onHosts.map((t) => t.jobId));
    const occupancy: Occupancy = { jobTasks, taskLabels: taskLabelsOnHosts(onHosts, labelConfigs) };
    const hosts = placementHosts(leases, new Map(facts.map((f) => [f.hostname, f])), occupancy);
    return placeTasks(hosts, tasks, { startOffset: this.offset });
  }

  /** Each placement as a launch and its PENDING → LAUNCHING change, grouped by leased host. */
  private launchesByHost(
    placements: readonly TaskPlacement[],
    rowById: ReadonlyMap<string, ReadyTaskRow>,
    admitted: ReadonlyMap<string, AdmittedTask>,
    configs: ReadonlyMap<string, JobConfig>,
    leases: readonly HostLease[],
    now: Date,
  ): Map<string, { lease: HostLease; items: Placed[] }> {
    const leaseOf = new Map(leases.map((l) => [l.hostname, l]));
    const out = new Map<string, { lease: HostLease; items: Placed[] }>();
    for (const p of placements) {
      const row = rowById.get(p.taskId)!;
      const config = configs.get(configKey(row.jobId, row.configVersion))!;
      // Only leased hosts have anything free; anything else would be a bug in the snapshot.
      const lease = leaseOf.get(p.hostname);
      if (!lease) {
        this.opts.log.error(
          { host: p.hostname, taskId: p.taskId },
          "placed on a host without a lease",
        );
        continue;
      }
      const volumeSpec = taskConfigFor(config, row.instanceId).volume;
      const volumeId = row.volume?.id ?? `${row.jobId}-${row.instanceId}`;
      const launch = taskLaunchOf(
        {
          jobId: row.jobId,
          jobName: config.name,
          instanceId: row.instanceId,
          runId: row.runId,
          resources: row.resources,
          volume: volumeSpec ? { id: volumeId, create: row.volume?.state !== "CREATED" } : null,
        },
        config,
        p.ports,
      );
      const message = `placed ${describePlacement(p)}`;
      const change: TaskChange = {
        taskId: row.taskId,
        jobId: row.jobId,
        instanceId: row.instanceId,
        expect: { state: "PENDING", runId: row.runId },
        state: "LAUNCHING",
        reason: "PLACED",
        message,
        set: {
          clusterTaskId: launch.taskId,
          hostname: p.hostname,
          agentId: p.agentId,
          ports: launch.ports ?? {},
        },
        events: [
          admittedEvent(admitted.get(row.taskId)!),
          {
            runId: row.runId,
            clusterTaskId: launch.taskId,
            previousState: "READY",
            state: "LAUNCHING",
            source: EVENT_SOURCES.placement,
            reason: "PLACED",
            message,
            hostname: p.hostname,
            agentId: p.agentId,
            at: now,
          },
        ],
      };
      const volume: VolumePin | null =
        volumeSpec && row.volume === null
          ? {
              id: volumeId,
              jobId: row.jobId,
              instanceId: row.instanceId,
              taskId: row.taskId,
              hostname: p.hostname,
              agentId: p.agentId,
              sizeMb: volumeSpec.sizeMB,
              containerPath: volumeSpec.containerPath,
            }
          : null;
      const entry = out.get(p.hostname) ?? { lease, items: [] };
      entry.items.push({ row, placement: p, launch, change, volume });
      out.set(p.hostname, entry);
    }
    return out;
  }
}
