/**
 * The host manager on Mesos: the only code that talks to the Mesos master.
 *
 *   start ─▶ framework id from PostgreSQL ─▶ SUBSCRIBE (same id: failover)
 *   SUBSCRIBED ─▶ store the id ─▶ reconcile the database's unfinished runs
 *                 (explicit) and everything else (implicit) ─▶ refresh hosts
 *   OFFERS ─▶ offer pool (acquire/release/launch)     RESCIND ─▶ out of the pool
 *          ─▶ volumes of deleted instances: DESTROY + UNRESERVE (volume-cleanup)
 *   UPDATE ─▶ status pipeline ─▶ handler (write) ─▶ ACKNOWLEDGE
 *   FAILURE ─▶ the agent's host LOST, its offers gone  stream lost ─▶ every offer void
 *   every few seconds ─▶ GET_AGENTS ─▶ hosts in PostgreSQL (totals, UP/LOST)
 *                     ─▶ held offers' volumes looked at again
 *
 * stop() closes the subscription without TEARDOWN: the framework and its
 * tasks live on, and the next leader re-subscribes with the stored id.
 */
import {
  getAgents,
  type MesosClientOptions,
  MesosError,
  MesosSchedulerClient,
  type OperatorAgent,
} from "@peloton/mesos";
import type { ClusterHost, StorageGateway } from "@peloton/storage";
import type { Logger } from "../../common/logger.ts";
import type {
  HostAdapterState,
  HostLease,
  HostResources,
  LaunchResult,
  MaintenanceMachine,
  RunningHostAdapter,
  StatusHandler,
  TaskLaunch,
  UnfinishedTasks,
} from "../host-adapter.ts";
import type { TaskLogRequest, TaskLogResult } from "../task-logs.ts";
import { agentUrlString, clusterHostOf } from "./cluster-hosts.ts";
import { DEFAULT_FRAMEWORK_NAME } from "./framework.ts";
import { planLaunch } from "./launch-operations.ts";
import { bringMachineUp, putMachineDown } from "./maintenance-calls.ts";
import { OfferPool, summarise } from "./offer-pool.ts";
import { readTaskLog } from "./sandbox-logs.ts";
import { StatusPipeline } from "./status-pipeline.ts";
import { VolumeCleanup } from "./volume-cleanup.ts";

export interface MesosHostManagerOptions {
  gateway: StorageGateway;
  /** One or more masters ("http://host:5050"). */
  master: string | readonly string[];
  log: Logger;
  /** Receives every status update; it is acknowledged after this resolves. */
  onStatus: StatusHandler;
  /** The runs to reconcile explicitly after every (re)subscription. */
  unfinishedTasks: UnfinishedTasks;
  /** The framework's name, also the key of its stored id. Default "peloton". */
  frameworkName?: string;
  /** Role the framework registers in and reserves volumes for. Default "peloton". */
  role?: string;
  /** How long Mesos keeps our tasks while no replica is subscribed. Default 1 day. */
  failoverTimeoutSeconds?: number;
  /** Period of the GET_AGENTS host refresh. Default 10 s. */
  hostRefreshMs?: number;
  /** Status updates handed to the handler at once. Default 16. */
  statusConcurrency?: number;
  /** Called after hosts were recorded as new, changed or gone (daemon jobs follow them). */
  onHostsChanged?: () => void;
  /** Client tuning (tests shorten backoff). */
  client?: Partial<
    Pick<MesosClientOptions, "backoff" | "requestTimeoutMs" | "heartbeatTimeoutFactor">
  >;
}

const RECONCILE_BATCH = 1000;

export class MesosHostManager implements RunningHostAdapter {
  readonly name = "host-manager";
  private client: MesosSchedulerClient | undefined;
  private readonly pool = new OfferPool();
  private readonly pipeline: StatusPipeline;
  private readonly volumes: VolumeCleanup;
  /** agent id → what we last wrote for its host (to write only changes). */
  private readonly written = new Map<string, string>();
  private readonly agentUrls = new Map<string, string>();
  private readonly hostnames = new Map<string, string>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  /** Counts agent removals; a refresh ignores agents removed after it asked the master. */
  private removalSeq = 0;
  private readonly removedAt = new Map<string, number>();
  private stateValue: HostAdapterState = "stopped";
  private readonly log: Logger;
  private readonly frameworkName: string;
  private readonly role: string;
  private started: Promise<void> | undefined;
  private leaderUrl: string | undefined;

  constructor(private readonly opts: MesosHostManagerOptions) {
    this.log = opts.log.child({ component: "host-manager" });
    this.frameworkName = opts.frameworkName ?? DEFAULT_FRAMEWORK_NAME;
    this.role = opts.role ?? "peloton";
    this.pipeline = new StatusPipeline({
      handler: opts.onStatus,
      acknowledge: (status) => this.client?.acknowledge(status) ?? Promise.resolve(),
      hostnameOf: (agentId) => this.hostnames.get(agentId),
      log: this.log,
      ...(opts.statusConcurrency !== undefined ? { concurrency: opts.statusConcurrency } : {}),
    });
    this.volumes = new VolumeCleanup({
      gateway: opts.gateway,
      role: this.role,
      log: this.log,
      take: (offerId, agentId) => this.pool.take(offerId, agentId),
      accept: async (offerIds, operations) => {
        const client = this.client;
        if (client === undefined || client.state !== "subscribed")
          throw new Error("not subscribed to the cluster");
        await client.accept(
          offerIds.map((value) => ({ value })),
          operations,
          { refuse_seconds: 0 },
        );
      },
    });
  }

  get state(): HostAdapterState {
    return this.stateValue;
  }

  /** The framework id Mesos knows us by, once subscribed. */
  get frameworkId(): string | undefined {
    return this.client?.frameworkId;
  }

  // ---- lifecycle (a leader loop) ------------------------------------------

  start(): void {
    if (this.started !== undefined) return;
    this.stateValue = "connecting";
    this.started = this.connect().catch((err: unknown) => {
      this.stateValue = "failed";
      this.log.error({ err }, "host manager could not start");
    });
  }

  /** Resolves after the first SUBSCRIBED and host refresh (tests, start-up). */
  async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.stateValue === "connected" && this.written.size > 0 && this.refreshing === undefined)
        return;
      if (this.stateValue === "failed") throw new Error("host manager failed");
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`host manager not ready after ${timeoutMs} ms`);
  }

  async stop(): Promise<void> {
    this.stateValue = "stopped";
    clearTimeout(this.refreshTimer);
    // The subscription first, before waiting on anything: a deposed leader must
    // let go of the cluster at once (a successor may be subscribing now).
    // connect() checks "stopped" before it makes a client, so none comes later.
    const client = this.client;
    this.client = undefined;
    await client?.stop();
    await this.started;
    this.started = undefined;
    this.pool.clear();
    this.pipeline.clear();
    await this.pipeline.idle();
    await this.refreshing;
  }

  private async connect(): Promise<void> {
    const stored = await this.opts.gateway.cluster.framework(this.frameworkName);
    if (this.stateValue === "stopped") return;
    const client = new MesosSchedulerClient({
      master: this.opts.master,
      frameworkInfo: {
        user: process.env.USER || "root",
        name: this.frameworkName,
        roles: [this.role],
        failover_timeout: this.opts.failoverTimeoutSeconds ?? 86_400,
        checkpoint: true,
        capabilities: [
          { type: "MULTI_ROLE" },
          { type: "GPU_RESOURCES" },
          { type: "TASK_KILLING_STATE" },
          { type: "RESERVATION_REFINEMENT" },
        ],
      },
      ...(stored ? { frameworkId: stored.frameworkId } : {}),
      // Reconciliation is ours: explicit for the database's runs, then implicit.
      reconcileOnResubscribe: false,
      ...this.opts.client,
    });
    this.client = client;
    client.on(
      "subscribed",
      (info) => void this.onSubscribed(client, info.frameworkId, info.masterUrl),
    );
    client.on("offers", (offers) => {
      for (const o of offers) {
        this.hostnames.set(o.agent_id.value, o.hostname);
        const url = agentUrlString(o.url);
        if (url !== null) this.agentUrls.set(o.agent_id.value, url);
      }
      this.pool.add(offers);
      void this.volumes.check(offers);
      // A host we have not written yet (new agent): refresh the host table now.
      if (offers.some((o) => !this.written.has(o.agent_id.value))) this.kickRefresh();
    });
    client.on("rescind", (id) => this.pool.rescind(id.value));
    client.on("update", (status) => this.pipeline.push(status));
    client.on("failure", (f) => {
      const agentId = f.agent_id?.value;
      if (agentId === undefined || f.executor_id !== undefined) return;
      this.pool.dropAgent(agentId);
      this.written.delete(agentId);
      this.removedAt.set(agentId, ++this.removalSeq);
      void this.opts.gateway.hosts
        .markAgentsLost([agentId], "agent removed from the cluster")
        .then(() => this.opts.onHostsChanged?.())
        .catch((err: unknown) => this.log.error({ err, agentId }, "could not mark the host lost"));
      this.kickRefresh();
    });
    client.on("disconnected", (d) => {
      this.stateValue = this.stateValue === "stopped" ? "stopped" : "disconnected";
      this.pool.clear();
      this.log.warn(
        { reason: d.reason, voidedOffers: d.voidedOffers.length },
        "Mesos subscription lost; re-subscribing",
      );
    });
    client.on("error", (err) => void this.onFatal(client, err));
    await client.start().catch(() => undefined);
  }

  private async onSubscribed(
    client: MesosSchedulerClient,
    frameworkId: string,
    masterUrl: string,
  ): Promise<void> {
    if (this.client !== client) return;
    this.stateValue = "connected";
    this.leaderUrl = masterUrl;
    this.log.info({ frameworkId, masterUrl }, "subscribed to Mesos");
    try {
      await this.opts.gateway.cluster.saveFramework(this.frameworkName, frameworkId, masterUrl);
      await this.reconcileAll();
    } catch (err) {
      this.log.error({ err }, "after subscribing: could not store the framework id or reconcile");
    }
    this.kickRefresh();
  }

  /** Explicit reconciliation of every unfinished run the database knows, then implicit. */
  private async reconcileAll(): Promise<void> {
    const tasks = await this.opts.unfinishedTasks();
    for (let i = 0; i < tasks.length; i += RECONCILE_BATCH) {
      await this.reconcile(tasks.slice(i, i + RECONCILE_BATCH));
    }
    await this.client?.reconcile([]);
    this.log.info({ explicit: tasks.length }, "reconciliation requested");
  }

  /**
   * A fatal end of the subscription. Another replica taking over is normal
   * (we stop); a framework Mesos removed (failover timeout passed) starts
   * over as a new framework, since its tasks are gone anyway.
   */
  private async onFatal(client: MesosSchedulerClient, err: MesosError): Promise<void> {
    if (this.client !== client || this.stateValue === "stopped") return;
    const removed =
      err.kind === "failover_timeout_exceeded" || /has been removed/i.test(err.masterMessage ?? "");
    this.log.error({ err: err.message }, "Mesos subscription ended");
    this.client = undefined;
    this.pool.clear();
    if (!removed) {
      this.stateValue = "failed";
      return;
    }
    await this.opts.gateway.cluster.forgetFramework(this.frameworkName);
    this.log.warn("the framework was removed by Mesos; subscribing as a new framework");
    this.started = this.connect();
  }

  // ---- hosts in PostgreSQL -------------------------------------------------

  private kickRefresh(): void {
    if (this.stateValue === "stopped") return;
    if (this.refreshing !== undefined) {
      this.refreshAgain = true;
      return;
    }
    clearTimeout(this.refreshTimer);
    // Offers held since before their volume's instance was deleted are looked at again.
    void this.volumes.check(this.pool.freeOffers());
    this.refreshing = this.refreshHosts()
      .catch((err: unknown) => this.log.warn({ err }, "host refresh failed"))
      .finally(() => {
        this.refreshing = undefined;
        if (this.stateValue === "stopped") return;
        if (this.refreshAgain) {
          this.refreshAgain = false;
          this.kickRefresh();
        } else {
          this.refreshTimer = setTimeout(
            () => this.kickRefresh(),
            this.opts.hostRefreshMs ?? 10_000,
          );
        }
      });
  }

  /** GET_AGENTS → hosts: write what changed, mark DOWN what the master no longer has. */
  private async refreshHosts(): Promise<void> {
    const asked = this.removalSeq;
    // The leading master answers operator calls; others would redirect there anyway.
    const agents: OperatorAgent[] = await getAgents(this.leaderUrl ?? this.firstMaster());
    // An agent removed while the answer was on its way is stale in it: writing
    // it would bring the host back UP after the FAILURE marked it DOWN.
    const staleAgent = (id: string) => (this.removedAt.get(id) ?? 0) > asked;
    const hosts = agents.flatMap((a) => {
      const id = a.agent_info.id?.value;
      const host = clusterHostOf(a, id !== undefined ? (this.agentUrls.get(id) ?? null) : null);
      return host ? [host] : [];
    });
    const changed: ClusterHost[] = [];
    const present = new Set<string>();
    for (const h of hosts) {
      if (staleAgent(h.agentId)) continue;
      present.add(h.agentId);
      this.hostnames.set(h.agentId, h.hostname);
      const key = JSON.stringify(h);
      if (this.written.get(h.agentId) !== key) changed.push(h);
    }
    await this.opts.gateway.hosts.recordRegistered(changed);
    for (const h of changed) this.written.set(h.agentId, JSON.stringify(h));
    for (const id of [...this.written.keys()]) if (!present.has(id)) this.written.delete(id);
    const down = await this.opts.gateway.hosts.markMissingLost(
      hosts.map((h) => h.hostname),
      "not registered with the Mesos master",
    );
    if (changed.length > 0 || down.length > 0) {
      this.log.info({ recorded: changed.length, down: down.length }, "hosts refreshed");
      this.opts.onHostsChanged?.();
    }
  }

  // ---- the adapter ---------------------------------------------------------

  hosts(): HostResources[] {
    return this.pool.hosts();
  }

  acquire(hostnames: readonly string[]): HostLease[] {
    return this.pool.acquire(hostnames);
  }

  release(leaseIds: readonly string[]): void {
    this.pool.release(leaseIds);
  }

  async launch(leaseId: string, tasks: readonly TaskLaunch[]): Promise<LaunchResult> {
    const lease = this.pool.takeLease(leaseId);
    if (lease === undefined) return { ok: false, refusal: { code: "LEASE_UNKNOWN", leaseId } };
    const client = this.client;
    if (client === undefined || client.state !== "subscribed" || lease.offers.length === 0) {
      return { ok: false, refusal: { code: "NOT_CONNECTED" } };
    }
    const planned = planLaunch(summarise(lease.offers), lease.offers, tasks, this.role);
    const offerIds = lease.offers.map((o) => o.id);
    if (!planned.ok) {
      // Give the resources back to Mesos at once rather than sit on them.
      await client.decline(offerIds, { refuse_seconds: 0 }).catch(() => undefined);
      return planned;
    }
    try {
      // Unused resources of the offers go back to Mesos with the ACCEPT.
      await client.accept(offerIds, planned.plan.operations, { refuse_seconds: 0 });
    } catch (err) {
      const message = err instanceof MesosError ? err.message : String(err);
      return { ok: false, refusal: { code: "CLUSTER_ERROR", message } };
    }
    return { ok: true, launched: planned.plan.launched };
  }

  async kill(
    taskId: string,
    opts: { hostId?: string; gracePeriodSeconds?: number } = {},
  ): Promise<void> {
    const client = this.requireClient();
    await client.kill(
      taskId,
      opts.hostId,
      opts.gracePeriodSeconds !== undefined
        ? { grace_period: { nanoseconds: Math.round(opts.gracePeriodSeconds * 1e9) } }
        : undefined,
    );
  }

  /** From the run's sandbox on its agent (sandbox-logs.ts), as any replica reads it. */
  taskLog(req: TaskLogRequest): Promise<TaskLogResult> {
    return readTaskLog(this.opts.gateway, req, this.frameworkName);
  }

  async startMaintenance(host: MaintenanceMachine): Promise<void> {
    await putMachineDown(this.leaderUrl ?? this.firstMaster(), host);
    this.kickRefresh();
  }

  async stopMaintenance(host: MaintenanceMachine): Promise<void> {
    await bringMachineUp(this.leaderUrl ?? this.firstMaster(), host);
    this.kickRefresh();
  }

  async reconcile(tasks: ReadonlyArray<{ taskId: string; hostId?: string }>): Promise<void> {
    if (tasks.length === 0) return;
    await this.requireClient().reconcile(
      tasks.map((t) => ({ taskId: t.taskId, ...(t.hostId ? { agentId: t.hostId } : {}) })),
    );
  }

  private firstMaster(): string {
    const m = this.opts.master;
    return typeof m === "string" ? m : (m[0] ?? "");
  }

  private requireClient(): MesosSchedulerClient {
    const client = this.client;
    if (client === undefined) throw new MesosError("not_subscribed");
    return client;
  }
}
