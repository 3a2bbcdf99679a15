/**
 * Server start-up, used by the console's launcher:
 *
 *   database   DATABASE_URL, or the embedded PostgreSQL; migrated; root pool;
 *      │       demo data on an empty database
 *      ▼
 *   cluster    MESOS_MASTER_URL, or mesos-sim in this process (the demo
 *      │       cluster: 8 agents in 2 zones, 2 with GPUs)
 *      ▼
 *   scheduler  campaigns for leadership; the leader subscribes to the
 *              cluster and runs the loops
 *
 * `stop()` takes them down in reverse: scheduler (no TEARDOWN, so tasks
 * survive a restart), mesos-sim, PostgreSQL. The in-process mesos-sim
 * checkpoints into `sim.sandboxDir`: its stop leaves the task processes
 * running, and the next start's sim re-adopts them (the scheduler then
 * re-subscribes with its stored framework id and reconciles), as Mesos
 * agents keep their tasks across a restart of the scheduler and of themselves.
 */
import { type AgentSpec, type MesosSim, startMesosSim } from "@peloton/mesos";
import { openGateway, type StorageGateway } from "@peloton/storage";
import { type OpenedDatabase, openDatabase } from "@peloton/storage/bootstrap";
import { type SchedulerRuntime, startScheduler } from "../assembly/replica.ts";
import { createLogger, type Logger } from "../common/logger.ts";
import { ensureRootPool, seedDemoData } from "../demo/seed.ts";
import { mesosHostAdapter } from "../hostmgr/mesos/mesos-adapter.ts";
import type { PreemptionSettings } from "./preemption-settings.ts";

export { agentsFromArgument } from "@peloton/mesos";
export {
  type EmbeddedServer,
  formatDatabaseUrl,
  StartupError,
  startEmbeddedPostgres,
} from "@peloton/storage/bootstrap";
export {
  type MesosAdapterOptions,
  mesosHostAdapter,
} from "../hostmgr/mesos/mesos-adapter.ts";
export { type PreemptionSettings, preemptionSettings } from "./preemption-settings.ts";

export interface SimBootOptions {
  /** Where sandboxes, volumes and the agents' checkpoint go (kept across restarts). */
  sandboxDir: string;
  /**
   * Checkpoint the agents' state in `sandboxDir` and recover it at the next
   * start (tasks outlive a restart). Default true when `sandboxDir` is set;
   * false: tasks are killed when the system stops.
   */
  checkpoint?: boolean;
  /** Default: an ephemeral port. */
  port?: number;
  /** Default: the demo cluster. */
  agents?: readonly AgentSpec[] | number;
  /** Short heartbeats and allocation interval (browser tests). */
  fast?: boolean;
}

export interface BootOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  demo: boolean;
  log: (line: string) => void;
  /** false: only the database (tools, test set-up). Default true. */
  scheduler?: boolean;
  /** Mesos master(s) to use instead of the in-process mesos-sim ("http://m1:5050,http://m2:5050"). */
  masterUrl?: string | undefined;
  sim?: SimBootOptions;
  logger?: Logger;
  /** The preemptor's period and sustained count (`preemptionSettings`); `enabled: false` runs none. */
  preemption?: PreemptionSettings;
}

export interface BootedSystem {
  database: OpenedDatabase;
  seeded: boolean;
  /** The master the scheduler subscribes to (mesos-sim's when in-process). */
  masterUrl: string | undefined;
  sim: MesosSim | undefined;
  scheduler: SchedulerRuntime | undefined;
  /**
   * Stops everything. The in-process sim's tasks keep running for the next
   * start when it checkpoints, unless `killTasks` (then no task outlives it).
   */
  stop: (opts?: { killTasks?: boolean }) => Promise<void>;
}

export async function bootSystem(opts: BootOptions): Promise<BootedSystem> {
  const database = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir });
  let gateway: StorageGateway | undefined = openGateway(database.url, { max: 2 });
  let sim: MesosSim | undefined;
  let scheduler: SchedulerRuntime | undefined;
  const stop = async (stopOpts: { killTasks?: boolean } = {}) => {
    await scheduler?.stop().catch(() => undefined);
    await sim
      ?.stop(stopOpts.killTasks !== undefined ? { killTasks: stopOpts.killTasks } : {})
      .catch(() => undefined);
    await gateway?.close().catch(() => undefined);
    await database.stop().catch(() => undefined);
  };
  try {
    await ensureRootPool(gateway);
    const { seeded } = opts.demo ? await seedDemoData(gateway) : { seeded: false };
    // Start-up writes are done; the scheduler opens its own (fenced) pool per term.
    await gateway.close();
    gateway = undefined;
    if (opts.scheduler === false)
      return { database, seeded, masterUrl: undefined, sim: undefined, scheduler: undefined, stop };
    let masterUrl = opts.masterUrl;
    if (!masterUrl) {
      const simOpts = opts.sim ?? { sandboxDir: "" };
      sim = await startMesosSim({
        ...(simOpts.port !== undefined ? { port: simOpts.port } : {}),
        ...(simOpts.agents !== undefined ? { agents: simOpts.agents } : {}),
        ...(simOpts.sandboxDir ? { sandboxDir: simOpts.sandboxDir } : {}),
        ...(simOpts.sandboxDir && simOpts.checkpoint !== undefined
          ? { checkpoint: simOpts.checkpoint }
          : {}),
        ...(simOpts.fast ? { heartbeatIntervalSeconds: 1, allocationIntervalSeconds: 0.1 } : {}),
      });
      masterUrl = sim.url;
      opts.log(`mesos-sim: ${sim.agents().length} agents, master at ${sim.url}`);
      if (sim.recovery !== undefined && sim.recovery.tasks + sim.recovery.frameworks > 0) {
        opts.log(
          `mesos-sim: recovered ${sim.recovery.tasks} running tasks of ${sim.recovery.frameworks} framework(s) from ${simOpts.sandboxDir}`,
        );
      }
    }
    scheduler = startScheduler({
      databaseUrl: database.url,
      // The composition root chooses the cluster: Mesos, at these masters.
      adapter: mesosHostAdapter({
        // Several masters, comma-separated: the client tries them in turn and follows 307s.
        master: masterUrl
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean),
        ...(opts.sim?.fast ? { hostRefreshMs: 1_000 } : {}),
      }),
      log: opts.logger ?? createLogger(),
      ...(opts.sim?.fast ? { drainPeriodMs: 1_000 } : {}),
      ...(opts.preemption ? { scheduling: { preemption: opts.preemption } } : {}),
    });
    if (sim !== undefined) {
      // In-process cluster: the console's first page shows its hosts.
      await scheduler.ready(15_000).catch((err: unknown) => {
        opts.log(`scheduler not ready yet (${err instanceof Error ? err.message : String(err)})`);
      });
    }
    return { database, seeded, masterUrl, sim, scheduler, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
