/**
 * The scheduler runtime of one replica: it campaigns for leadership, and
 * while it leads it runs the leader's loops (the host manager first, then
 * the leader owns: host drains, the entitlement sampler, and the job
 * manager's goal-state, admission and placement loops). Losing the lease
 * stops them; a standby starts its own within seconds.
 */
import { hostname } from "node:os";
import { ChangeListener, type StorageGateway } from "@peloton/storage";
import { drainLoop } from "../hostmgr/drain-loop.ts";
import type { StatusHandler } from "../hostmgr/host-adapter.ts";
import {
  MesosHostManager,
  type MesosHostManagerOptions,
} from "../hostmgr/mesos/mesos-host-manager.ts";
import { unfinishedTasksOf } from "../hostmgr/unfinished-tasks.ts";
import { JobManager, type JobManagerTuning } from "../jobmgr/job-manager.ts";
import { createEntitlementSampler } from "../respool/sampler.ts";
import { LeaderElection } from "./leader.ts";
import type { Logger } from "./logger.ts";
import type { SchedulerLoop } from "./loop.ts";

export interface SchedulerOptions {
  gateway: StorageGateway;
  databaseUrl: string;
  /** The Mesos master(s) the host manager subscribes to. */
  masterUrl: string | readonly string[];
  log: Logger;
  /** Who this replica is. Default "<hostname>:<pid>". */
  holder?: string;
  /**
   * Replaces the job manager: status updates go to this handler and the
   * job manager's loops do not run (host manager tests).
   */
  onStatus?: StatusHandler;
  /** Periods and batch sizes of the job manager's loops. */
  jobManager?: JobManagerTuning;
  /** More loops for the leader, started after the host manager. */
  extraLoops?: (hostManager: MesosHostManager) => SchedulerLoop[];
  election?: { retryMs?: number; renewMs?: number };
  hostManager?: Partial<
    Pick<
      MesosHostManagerOptions,
      | "hostRefreshMs"
      | "client"
      | "failoverTimeoutSeconds"
      | "frameworkName"
      | "role"
      | "statusConcurrency"
    >
  >;
  drainPeriodMs?: number;
  /** Period of the entitlement sampler (the pool charts). Default 30 s. */
  samplePeriodMs?: number;
}

export interface SchedulerRuntime {
  readonly holder: string;
  /** True while this replica leads. */
  readonly leading: boolean;
  /** The leader's host manager; undefined on a standby. */
  readonly hostManager: MesosHostManager | undefined;
  /** The leader's job manager (writer, loops); undefined on a standby. */
  readonly jobManager: JobManager | undefined;
  /** The lock session's server process id (tests kill it to depose the leader). */
  readonly lockBackendPid: number | undefined;
  /** Resolves once this replica leads with its hosts recorded (bounded wait). */
  ready(timeoutMs?: number): Promise<void>;
  /** Stops the loops and leaves the framework subscribed-in-waiting (no TEARDOWN). */
  stop(): Promise<void>;
}

export function startScheduler(opts: SchedulerOptions): SchedulerRuntime {
  const holder = opts.holder ?? `${hostname()}:${process.pid}`;
  const log = opts.log.child({ replica: holder });
  let loops: SchedulerLoop[] = [];
  let hostManager: MesosHostManager | undefined;
  let jobManager: JobManager | undefined;
  // One LISTEN connection for every loop that reacts to committed changes.
  const changes = new ChangeListener(opts.databaseUrl, {
    onError: (err) => log.warn({ err: err.message }, "change feed lost; reconnecting"),
  });

  const election = new LeaderElection({
    databaseUrl: opts.databaseUrl,
    gateway: opts.gateway,
    holder,
    log,
    ...opts.election,
    onElected: async () => {
      const jobs = opts.onStatus
        ? undefined
        : new JobManager({
            gateway: opts.gateway,
            changes,
            log,
            adapter: () => hostManager,
            ...opts.jobManager,
          });
      hostManager = new MesosHostManager({
        gateway: opts.gateway,
        master: opts.masterUrl,
        log,
        onStatus: opts.onStatus ?? jobs!.onStatus,
        unfinishedTasks: unfinishedTasksOf(opts.gateway),
        // The job manager writes updates in batches: many in flight make big batches.
        statusConcurrency: jobs ? 4_096 : 16,
        ...(jobs ? { onHostsChanged: () => jobs.hostsChanged() } : {}),
        ...opts.hostManager,
      });
      jobManager = jobs;
      loops = [
        hostManager,
        drainLoop(opts.gateway, log, opts.drainPeriodMs),
        ...(jobs?.loops() ?? []),
        createEntitlementSampler({
          gateway: opts.gateway,
          changes,
          log,
          ...(opts.samplePeriodMs !== undefined ? { periodMs: opts.samplePeriodMs } : {}),
        }),
        ...(opts.extraLoops?.(hostManager) ?? []),
      ];
      for (const loop of loops) loop.start();
    },
    onDeposed: async () => {
      const running = loops.reverse();
      loops = [];
      hostManager = undefined;
      jobManager = undefined;
      for (const loop of running) await loop.stop();
    },
  });
  election.start();

  return {
    holder,
    get leading() {
      return election.leading;
    },
    get hostManager() {
      return hostManager;
    },
    get jobManager() {
      return jobManager;
    },
    get lockBackendPid() {
      return election.backendPid;
    },
    async ready(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (hostManager === undefined) {
        if (Date.now() > deadline) throw new Error(`not leading after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
      await hostManager.ready(Math.max(0, deadline - Date.now()));
    },
    stop: async () => {
      await election.stop();
      await changes.stop();
    },
  };
}
