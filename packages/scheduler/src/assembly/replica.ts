/**
 * The scheduler runtime of one replica: it campaigns for leadership, and
 * while it leads it runs the leader's loops (leader-loops.ts builds them: the
 * host manager first, then host drains, the job manager's goal states,
 * admission, placement, the preemptor and the entitlement sampler). Losing
 * the lease stops them; a standby starts its own within seconds.
 *
 * Each term writes through a gateway of its own whose connections are
 * fenced by the term's epoch: once a successor is elected the database
 * refuses them, whatever this replica still has in flight. Deposition
 * closes the host adapter's connection first (a successor may already
 * connect as the same framework), then stops the other loops without
 * waiting for a slow tick beyond STOP_WAIT_MS: the tick's writes are
 * refused anyway, and it ends on its own.
 */
import { hostname } from "node:os";
import { ChangeListener, openGateway, type StorageGateway } from "@peloton/storage";
import { LeaderElection } from "../common/leader.ts";
import type { Logger } from "../common/logger.ts";
import type { SchedulerLoop } from "../common/loop.ts";
import type {
  HostAdapterFactory,
  RunningHostAdapter,
  StatusHandler,
} from "../hostmgr/host-adapter.ts";
import { leaderLoops, type Scheduling, type SchedulingTuning } from "./leader-loops.ts";
import { SCHEDULER_LEASE as LEASE } from "./status.ts";

export interface SchedulerOptions {
  databaseUrl: string;
  /** Connections of each term's (fenced) gateway. Default 8. */
  poolSize?: number;
  /**
   * Builds the leader's host adapter, once per term: the composition root
   * chooses the cluster (boot/ builds the Mesos one from MESOS_MASTER_URL or
   * the in-process mesos-sim); nothing here knows which it is.
   */
  adapter: HostAdapterFactory;
  log: Logger;
  /** Who this replica is. Default "<hostname>:<pid>". */
  holder?: string;
  /**
   * Replaces the scheduling loops: status updates go to this handler and the
   * job manager's, resource manager's and placement's loops do not run (host
   * manager tests).
   */
  onStatus?: StatusHandler;
  /** Periods and batch sizes of the scheduling loops. */
  scheduling?: SchedulingTuning;
  /** More loops for the leader, started after the host manager. */
  extraLoops?: (hostManager: RunningHostAdapter) => SchedulerLoop[];
  election?: { retryMs?: number; renewMs?: number; queryTimeoutMs?: number };
  drainPeriodMs?: number;
  /** Period of the entitlement sampler (the pool charts). Default 30 s. */
  samplePeriodMs?: number;
}

export interface SchedulerRuntime {
  readonly holder: string;
  /** True while this replica leads. */
  readonly leading: boolean;
  /** The leader's host manager; undefined on a standby. */
  readonly hostManager: RunningHostAdapter | undefined;
  /**
   * The leader's scheduling: the task writer, the job manager, admission,
   * placement and the preemptor; undefined on a standby.
   */
  readonly scheduling: Scheduling | undefined;
  /** The lock session's server process id (tests kill it to depose the leader). */
  readonly lockBackendPid: number | undefined;
  /** The lease epoch of this replica's term; undefined on a standby. */
  readonly epoch: bigint | undefined;
  /** Resolves once this replica leads with its hosts recorded (bounded wait). */
  ready(timeoutMs?: number): Promise<void>;
  /** Stops the loops and leaves the framework subscribed-in-waiting (no TEARDOWN). */
  stop(): Promise<void>;
}

/** How long deposition waits for a loop's tick in flight before leaving it behind. */
const STOP_WAIT_MS = 500;

export function startScheduler(opts: SchedulerOptions): SchedulerRuntime {
  const holder = opts.holder ?? `${hostname()}:${process.pid}`;
  const log = opts.log.child({ replica: holder });
  let loops: SchedulerLoop[] = [];
  let hostManager: RunningHostAdapter | undefined;
  let scheduling: Scheduling | undefined;
  let termGateway: StorageGateway | undefined;
  // One LISTEN connection for every loop that reacts to committed changes.
  const changes = new ChangeListener(opts.databaseUrl, {
    onError: (err) => log.warn({ err: err.message }, "change feed lost; reconnecting"),
  });

  const election = new LeaderElection({
    databaseUrl: opts.databaseUrl,
    holder,
    name: LEASE,
    log,
    ...opts.election,
    onElected: async ({ epoch }) => {
      const gateway = openGateway(opts.databaseUrl, {
        max: opts.poolSize ?? 8,
        fence: { lease: LEASE, epoch },
        retry: {
          onRetry: (err, attempt, waitMs) =>
            log.warn({ err: String(err), attempt, waitMs }, "transaction conflicted; retrying"),
        },
      });
      termGateway = gateway;
      // The activity feed shows when a scheduler took over (a restart, a failover).
      await gateway.audit
        .record({
          actor: "system",
          via: "system",
          action: "scheduler.lead",
          targetType: "scheduler",
          targetId: holder,
          after: { holder, epoch: Number(epoch) },
        })
        .catch((err: unknown) =>
          log.warn({ err: String(err) }, "could not record the start of leadership"),
        );
      const term = leaderLoops({
        gateway,
        changes,
        log,
        adapter: opts.adapter,
        ...(opts.onStatus ? { onStatus: opts.onStatus } : {}),
        ...(opts.scheduling ? { scheduling: opts.scheduling } : {}),
        ...(opts.drainPeriodMs !== undefined ? { drainPeriodMs: opts.drainPeriodMs } : {}),
        ...(opts.samplePeriodMs !== undefined ? { samplePeriodMs: opts.samplePeriodMs } : {}),
        ...(opts.extraLoops ? { extraLoops: opts.extraLoops } : {}),
      });
      hostManager = term.hostManager;
      scheduling = term.scheduling;
      loops = term.loops;
      for (const loop of loops) loop.start();
    },
    onDeposed: async () => {
      const [subscription, ...others] = loops;
      const gateway = termGateway;
      loops = [];
      hostManager = undefined;
      scheduling = undefined;
      termGateway = undefined;
      // The subscription first: a successor may be subscribing as this framework now.
      if (subscription) await withinMs(subscription.stop(), STOP_WAIT_MS, subscription.name, log);
      await withinMs(
        Promise.allSettled(others.reverse().map((loop) => loop.stop())),
        STOP_WAIT_MS,
        "the leader's loops",
        log,
      );
      // New queries fail at once; the pool ends when the last tick left behind returns its client.
      void gateway?.close().catch(() => undefined);
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
    get scheduling() {
      return scheduling;
    },
    get lockBackendPid() {
      return election.backendPid;
    },
    get epoch() {
      return election.epoch;
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

/** Waits for `work` at most `ms`; what is still running then is logged and left to finish. */
async function withinMs(work: Promise<unknown>, ms: number, what: string, log: Logger) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  const outcome = await Promise.race([work.then(() => "done" as const), late]).catch(
    () => "done" as const,
  );
  clearTimeout(timer);
  if (outcome === "late") log.warn(`${what}: still finishing after ${ms} ms; left behind`);
}
