/**
 * `startMesosSim`: a Mesos master speaking the v1 scheduler HTTP API on a
 * port of its choosing, with simulated agents whose tasks run as real child
 * processes (or simulated runs). Used by tests, by the app as its default
 * cluster, and by the `mesos-sim` command.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TaskState } from "../proto/enums.ts";
import type { Resource } from "../proto/messages.ts";
import { type RecoveryReport, recoverAgents, recoverTasks } from "./checkpoint/recovery.ts";
import { CheckpointStore } from "./checkpoint/store.ts";
import { type AgentSpec, demoCluster } from "./cluster.ts";
import { createSimServer } from "./http-server.ts";
import { Master } from "./master.ts";
import { removeDir } from "./sandbox.ts";

export interface MesosSimOptions {
  /** 0 (default) = an ephemeral port; see `url`. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Agents, or a count for `demoCluster({ agents: n })`. Default: the 8-agent demo cluster. */
  agents?: readonly AgentSpec[] | number;
  /** Default 15, as Mesos. Tests use ~0.2. */
  heartbeatIntervalSeconds?: number;
  /** Period of the allocation pass. Default 1. */
  allocationIntervalSeconds?: number;
  /** Unused offers are rescinded after this long. Default: never. */
  offerTimeoutSeconds?: number;
  /** First re-send of an unacknowledged update. Default 10 (doubling up to 10 min). */
  statusUpdateRetrySeconds?: number;
  /** Where sandboxes and volumes go. Default: a fresh OS temp dir, removed by stop(). */
  sandboxDir?: string;
  /**
   * Keep the agents' state in `<sandboxDir>/meta/` like Mesos agents with
   * checkpointing: agent ids, frameworks, tasks and their processes,
   * reservations and volumes, unacknowledged updates. A sim started on the
   * same dir recovers them and adopts the task processes still running, and
   * `stop()` leaves tasks running for it. Default: true when `sandboxDir` is
   * given; needs one.
   */
  checkpoint?: boolean;
  /** Keep the default temp sandbox dir after stop(). */
  keepSandboxes?: boolean;
  /** Simulate every task (see simulated-run.ts) instead of spawning processes. */
  simulateTasks?: boolean;
  /** Kill grace period when neither the task nor the KILL gives one. Default 3. */
  killGracePeriodSeconds?: number;
  /** Act as a non-leading master: answer 307 to this "host:port" (or URL). */
  redirectTo?: string;
  masterId?: string;
  log?: (line: string) => void;
}

export interface SimTaskSnapshot {
  frameworkId: string;
  taskId: string;
  agentId: string;
  state: TaskState;
  sandbox: string | undefined;
  /** Updates generated but not yet acknowledged. */
  pendingUpdates: number;
}

export interface SimAgentSnapshot {
  id: string;
  hostname: string;
  total: Resource[];
  used: Resource[];
  offered: Resource[];
}

export interface MesosSimStopOptions {
  /**
   * Kill every task's process group (and wait for it) instead of leaving the
   * tasks running for the next sim on this checkpoint. Default: true without
   * checkpointing (nothing could adopt them), false with it.
   */
  killTasks?: boolean;
}

export interface MesosSim {
  /** "http://host:port" of the master. */
  readonly url: string;
  /** The scheduler endpoint, `${url}/api/v1/scheduler`. */
  readonly schedulerUrl: string;
  readonly port: number;
  readonly masterId: string;
  readonly sandboxRoot: string;
  /** Whether the agents' state is checkpointed under `sandboxRoot/meta`. */
  readonly checkpointing: boolean;
  /** What was recovered from the checkpoint at start; undefined without checkpointing. */
  readonly recovery: RecoveryReport | undefined;
  /** Starts an agent (its endpoint listening) and registers it; resolves with its id. */
  addAgent(spec: AgentSpec): Promise<string>;
  removeAgent(agentId: string, opts?: { gone?: boolean }): void;
  agents(): SimAgentSnapshot[];
  frameworkIds(): string[];
  tasks(): SimTaskSnapshot[];
  /** The sandbox folder of a task (stdout, stderr inside); undefined for simulated runs. */
  sandboxPath(taskId: string, frameworkId?: string): string | undefined;
  /** Rescinds outstanding offers (of one agent when given). */
  rescindOffers(agentId?: string): void;
  /** Cuts every subscription connection, as a crash would. */
  dropStreams(): void;
  /** Keeps subscriptions open but silent (no events, no heartbeats): a partition. */
  silenceStreams(): void;
  /** Become non-leading (307 to `target`), leaderless (503, `false`) or leading (`true`). */
  setLeadership(state: boolean | string): void;
  stop(opts?: MesosSimStopOptions): Promise<void>;
}

export async function startMesosSim(opts: MesosSimOptions = {}): Promise<MesosSim> {
  const host = opts.host ?? "127.0.0.1";
  const ownDir = opts.sandboxDir === undefined;
  const checkpointing = opts.checkpoint ?? !ownDir;
  if (checkpointing && ownDir) {
    throw new Error("mesos-sim: checkpointing needs a sandboxDir that outlives the sim");
  }
  const sandboxRoot = opts.sandboxDir ?? mkdtempSync(join(tmpdir(), "mesos-sim-"));
  const masterId = opts.masterId ?? randomUUID();
  const master = new Master({
    masterId,
    hostname: host === "0.0.0.0" ? "localhost" : host,
    ip: host === "0.0.0.0" || host === "localhost" ? "127.0.0.1" : host,
    port: 0,
    heartbeatIntervalSeconds: opts.heartbeatIntervalSeconds ?? 15,
    allocationIntervalSeconds: opts.allocationIntervalSeconds ?? 1,
    offerTimeoutSeconds: opts.offerTimeoutSeconds,
    statusUpdateRetrySeconds: opts.statusUpdateRetrySeconds ?? 10,
    sandboxRoot,
    simulateAllTasks: opts.simulateTasks ?? false,
    defaultKillGracePeriodSeconds: opts.killGracePeriodSeconds ?? 3,
    log: opts.log ?? (() => {}),
  });
  const store = checkpointing
    ? CheckpointStore.open(join(sandboxRoot, "meta"), master.config.log)
    : undefined;
  master.checkpoint = store;
  let redirect = opts.redirectTo !== undefined ? hostPort(opts.redirectTo) : undefined;
  let leading = true;
  const server = createSimServer(master, { redirectTo: () => redirect, leading: () => leading });
  const specs =
    typeof opts.agents === "number"
      ? demoCluster({ agents: opts.agents })
      : (opts.agents ?? demoCluster());
  let recovery: RecoveryReport | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    master.config.port = (server.address() as AddressInfo).port;
    if (store !== undefined) {
      await recoverAgents(master, store, specs);
      recovery = recoverTasks(master, store);
      master.config.log(
        `recovered from ${store.dir}: ${recovery.agents} agents, ${recovery.frameworks} frameworks, ${recovery.tasks} live tasks (${recovery.killed} orphaned processes killed)`,
      );
    } else {
      await Promise.all(specs.map((spec) => master.addAgent(spec)));
    }
  } catch (err) {
    // Nothing half-started stays behind: agents' endpoints, the port, the data dir's lock.
    await master.stop({ killTasks: store === undefined });
    server.close();
    throw err;
  }
  const port = master.config.port;
  master.started = true;
  // Without a checkpoint nothing could adopt the tasks: they die with this process, even
  // when it exits without stop() (a test that fails before its clean-up).
  const killOnExit = () => master.tasks.killAllNow();
  if (store === undefined) killedOnExit.add(killOnExit);
  master.allocator.start();
  const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
  master.config.log(`mesos-sim master ${masterId} listening on ${url}`);

  let stopped: Promise<void> | undefined;
  return {
    url,
    schedulerUrl: `${url}/api/v1/scheduler`,
    port,
    masterId,
    sandboxRoot,
    checkpointing,
    recovery,
    addAgent: (spec) => master.addAgent(spec),
    removeAgent: (agentId, o) => master.removeAgent(agentId, o),
    agents: () =>
      [...master.agents.values()].map((a) => ({
        id: a.id,
        hostname: a.hostname,
        total: a.total.toResources(),
        used: a.used.toResources(),
        offered: a.offered.toResources(),
      })),
    frameworkIds: () => [...master.frameworks.keys()],
    tasks: () =>
      [...master.frameworks.values()].flatMap((fw) =>
        [...fw.tasks.values()].map((t) => ({
          frameworkId: fw.id,
          taskId: t.taskId,
          agentId: t.agentId,
          state: t.state,
          sandbox: t.sandbox,
          pendingUpdates: fw.updates.pendingFor(t.taskId).length,
        })),
      ),
    sandboxPath: (taskId, frameworkId) => master.tasks.sandboxPath(taskId, frameworkId),
    rescindOffers: (agentId) => master.allocator.rescindAll(agentId),
    dropStreams: () => master.dropStreams(),
    silenceStreams: () => master.silenceStreams(),
    setLeadership: (state) => {
      redirect = typeof state === "string" ? hostPort(state) : undefined;
      leading = state !== false;
    },
    stop: (stopOpts = {}) => {
      stopped ??= (async () => {
        killedOnExit.delete(killOnExit);
        await master.stop({ killTasks: stopOpts.killTasks ?? !checkpointing });
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        if (ownDir && opts.keepSandboxes !== true) removeDir(sandboxRoot);
      })();
      return stopped;
    },
  };
}

/** The task killers of the running sims without a checkpoint; one exit listener for all. */
const killedOnExit = new Set<() => void>();
process.on("exit", () => {
  for (const kill of killedOnExit) kill();
});

/** "http://h:p/..." or "h:p" → "h:p" (the form Mesos puts in a 307 Location). */
function hostPort(target: string): string {
  return target.includes("://") ? new URL(target).host : target;
}
