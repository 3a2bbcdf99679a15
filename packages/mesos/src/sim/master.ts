/**
 * The master of mesos-sim: frameworks (subscription, failover, removal),
 * agents, and the dispatch of scheduler calls to the allocator and the task
 * manager. HTTP lives in http-server.ts; this file never sees a socket except
 * through EventStream.
 */
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { Call, CallOf } from "../proto/calls.ts";
import type { MasterInfo, Resource, URL } from "../proto/messages.ts";
import type { MachineID } from "../proto/operator.ts";
import { ResourceBag } from "../resources/bag.ts";
import { acceptOffers } from "./accept.ts";
import { SimAgent } from "./agent.ts";
import { AGENT_PROCESS, startAgentServer } from "./agent-endpoint.ts";
import { Allocator } from "./allocator.ts";
import { agentRecord } from "./checkpoint/capture.ts";
import type { CheckpointStore } from "./checkpoint/store.ts";
import { type AgentSpec, agentAttributes, agentResources } from "./cluster.ts";
import type { EventStream } from "./event-stream.ts";
import { MaintenanceBook, type MaintenanceOutcome } from "./maintenance.ts";
import { SimFramework } from "./model.ts";
import type { AgentStanding } from "./reconcile.ts";
import { StatusUpdateQueue } from "./status-updates.ts";
import { TaskManager } from "./tasks.ts";

export interface MasterConfig {
  masterId: string;
  hostname: string;
  ip: string;
  port: number;
  heartbeatIntervalSeconds: number;
  allocationIntervalSeconds: number;
  offerTimeoutSeconds: number | undefined;
  statusUpdateRetrySeconds: number;
  sandboxRoot: string;
  simulateAllTasks: boolean;
  defaultKillGracePeriodSeconds: number;
  log: (line: string) => void;
}

export type CallOutcome = { status: 202 } | { status: 400 | 403; message: string };

/** setTimeout's ceiling (~24.8 days); longer failover timeouts are clamped. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Master {
  readonly frameworks = new Map<string, SimFramework>();
  readonly removedFrameworks = new Set<string>();
  readonly agents = new Map<string, SimAgent>();
  readonly removedAgents = new Map<string, "unreachable" | "gone">();
  readonly allocator: Allocator;
  readonly tasks: TaskManager;
  /** The maintenance schedule and the machines in maintenance (maintenance.ts). */
  readonly maintenance = new MaintenanceBook();
  /** Agents taken down with their machine, restarted when its maintenance stops. */
  private readonly downAgents: { hostname: string; spec: AgentSpec }[] = [];
  /** Set when the sim checkpoints (a data dir kept across restarts). */
  checkpoint: CheckpointStore | undefined;
  /** Agents added from now on are dynamic (re-added from the checkpoint on recovery). */
  started = false;
  private frameworkSeq = 0;
  private agentSeq = 0;
  private readonly startingAgents = new Set<string>();

  constructor(readonly config: MasterConfig) {
    this.allocator = new Allocator(this);
    this.tasks = new TaskManager(this);
  }

  masterInfo(): MasterInfo {
    const { ip, port, hostname, masterId } = this.config;
    const [a = 0, b = 0, c = 0, d = 0] = ip.split(".").map(Number);
    return {
      id: masterId,
      // Network byte order read as a little-endian uint32: 127.0.0.1 → 16777343.
      ip: ((d << 24) | (c << 16) | (b << 8) | a) >>> 0,
      port,
      hostname,
      version: "1.11.0",
      address: { hostname, ip, port },
    };
  }

  // ---- frameworks -------------------------------------------------------

  /** SUBSCRIBE on `stream` (already validated). Opens the stream in every case. */
  subscribe(call: CallOf<"SUBSCRIBE">, stream: EventStream): void {
    const info = call.subscribe.framework_info;
    const requestedId = info.id?.value;
    stream.open();
    if (requestedId !== undefined && this.removedFrameworks.has(requestedId)) {
      stream.send({ type: "ERROR", error: { message: "Framework has been removed" } });
      stream.close();
      return;
    }
    let fw = requestedId !== undefined ? this.frameworks.get(requestedId) : undefined;
    if (fw !== undefined) {
      this.failover(fw);
      fw.info = { ...info, id: { value: fw.id } };
    } else {
      // An unknown id is a framework re-registering after a master failover: keep its id.
      const id =
        requestedId ?? `${this.config.masterId}-${String(this.frameworkSeq++).padStart(4, "0")}`;
      fw = this.newFramework(id, { ...info, id: { value: id } });
    }
    this.checkpointFramework(fw);
    fw.suppressed = new Set(call.subscribe.suppressed_roles ?? []);
    fw.stream = stream;
    const subscribed = fw;
    stream.onClose(() => this.onStreamClosed(subscribed, stream));
    stream.send({
      type: "SUBSCRIBED",
      subscribed: {
        framework_id: { value: fw.id },
        heartbeat_interval_seconds: this.config.heartbeatIntervalSeconds,
        master_info: this.masterInfo(),
      },
    });
    stream.startHeartbeats(this.config.heartbeatIntervalSeconds);
    fw.updates.resendAll();
    this.allocator.schedule();
    this.config.log(`framework ${fw.id} (${fw.info.name}) subscribed`);
  }

  checkpointFramework(fw: SimFramework): void {
    this.checkpoint?.append({ t: "framework", framework: { id: fw.id, info: fw.info } });
  }

  /** A framework from the checkpoint, not yet re-subscribed: its failover timeout runs. */
  recoverFramework(id: string, info: SimFramework["info"]): SimFramework {
    const fw = this.newFramework(id, info);
    fw.disconnectedAt = Date.now();
    this.armFailover(fw);
    return fw;
  }

  private newFramework(id: string, info: SimFramework["info"]): SimFramework {
    const fw = new SimFramework(id, info);
    const retryMs = this.config.statusUpdateRetrySeconds * 1000;
    fw.updates = new StatusUpdateQueue(
      { initialMs: retryMs, maxMs: Math.max(retryMs, 600_000) },
      (status) => fw.sendStatus(status),
      (status) => this.tasks.onAcknowledged(fw, status),
    );
    this.frameworks.set(id, fw);
    return fw;
  }

  /** A new subscriber for a known framework: the old stream gets ERROR and is closed. */
  private failover(fw: SimFramework): void {
    const old = fw.stream;
    fw.stream = undefined;
    if (old !== undefined && !old.closed) {
      old.send({ type: "ERROR", error: { message: "Framework failed over" } });
      old.close();
    }
    if (fw.failoverTimer !== undefined) clearTimeout(fw.failoverTimer);
    fw.failoverTimer = undefined;
    fw.disconnectedAt = undefined;
    // Offers made to the previous instance are void; the new one gets fresh offers.
    this.allocator.recoverOffersOf(fw);
  }

  private onStreamClosed(fw: SimFramework, stream: EventStream): void {
    if (fw.stream !== stream || this.frameworks.get(fw.id) !== fw) return;
    fw.stream = undefined;
    fw.disconnectedAt = Date.now();
    this.allocator.recoverOffersOf(fw);
    this.armFailover(fw);
  }

  private armFailover(fw: SimFramework): void {
    const timeoutMs = Math.min((fw.info.failover_timeout ?? 0) * 1000, MAX_TIMER_MS);
    this.config.log(`framework ${fw.id} disconnected; failover timeout ${timeoutMs} ms`);
    fw.failoverTimer = setTimeout(() => this.removeFramework(fw, "failover timeout"), timeoutMs);
    fw.failoverTimer.unref();
  }

  /** TEARDOWN or failover timeout: kill its tasks, forget it, refuse its id from now on. */
  removeFramework(fw: SimFramework, why: string): void {
    if (this.frameworks.get(fw.id) !== fw) return;
    this.config.log(`framework ${fw.id} removed (${why})`);
    if (fw.failoverTimer !== undefined) clearTimeout(fw.failoverTimer);
    this.frameworks.delete(fw.id);
    this.removedFrameworks.add(fw.id);
    this.checkpoint?.append({ t: "framework_removed", id: fw.id });
    this.allocator.recoverOffersOf(fw);
    this.tasks.removeAllOf(fw);
    fw.updates.clear();
    const stream = fw.stream;
    fw.stream = undefined;
    stream?.close();
    this.allocator.schedule();
  }

  // ---- calls ------------------------------------------------------------

  /** Every call but SUBSCRIBE; checks the caller is the subscribed framework first. */
  handle(call: Exclude<Call, { type: "SUBSCRIBE" }>, streamId: string | undefined): CallOutcome {
    const fid = call.framework_id?.value ?? "";
    const fw = this.frameworks.get(fid);
    if (fw === undefined) return { status: 400, message: "Framework cannot be found" };
    if (!fw.connected) return { status: 403, message: "Framework is not subscribed" };
    if (streamId === undefined) {
      return {
        status: 400,
        message: "All non-subscribe calls should include the 'Mesos-Stream-Id' header",
      };
    }
    if (streamId !== fw.stream?.id) {
      return {
        status: 400,
        message: `The stream ID '${streamId}' included in this request didn't match the stream ID currently associated with framework ID ${fid}`,
      };
    }
    this.dispatch(fw, call);
    return { status: 202 };
  }

  private dispatch(fw: SimFramework, call: Exclude<Call, { type: "SUBSCRIBE" }>): void {
    switch (call.type) {
      case "TEARDOWN":
        this.removeFramework(fw, "teardown");
        return;
      case "ACCEPT":
        acceptOffers(this, fw, call.accept);
        return;
      case "DECLINE":
        this.allocator.decline(fw, call.decline.offer_ids, call.decline.filters);
        return;
      case "REVIVE":
        this.allocator.revive(fw, call.revive?.roles);
        return;
      case "SUPPRESS":
        this.allocator.suppress(fw, call.suppress?.roles);
        return;
      case "KILL":
        this.tasks.kill(fw, call.kill);
        return;
      case "SHUTDOWN":
        this.tasks.shutdownExecutor(fw, call.shutdown);
        return;
      case "ACKNOWLEDGE":
        fw.updates.acknowledge(call.acknowledge.task_id.value, call.acknowledge.uuid);
        return;
      case "RECONCILE":
        this.tasks.reconcile(fw, call.reconcile.tasks ?? []);
        return;
      case "RECONCILE_OPERATIONS":
        // The sim keeps no operation records: every operation asked about is unknown.
        for (const op of call.reconcile_operations.operations ?? []) {
          fw.send({
            type: "UPDATE_OPERATION_STATUS",
            update_operation_status: {
              status: { operation_id: op.operation_id, state: "OPERATION_UNKNOWN" },
            },
          });
        }
        return;
      case "UPDATE_FRAMEWORK":
        fw.info = { ...call.update_framework.framework_info, id: { value: fw.id } };
        if (call.update_framework.suppressed_roles !== undefined) {
          fw.suppressed = new Set(call.update_framework.suppressed_roles);
        }
        this.checkpointFramework(fw);
        this.allocator.schedule();
        return;
      // No executors to talk to, no maintenance, no request-aware allocator: accepted, ignored.
      case "MESSAGE":
      case "REQUEST":
      case "ACCEPT_INVERSE_OFFERS":
      case "DECLINE_INVERSE_OFFERS":
      case "ACKNOWLEDGE_OPERATION_STATUS":
        return;
    }
  }

  // ---- agents -----------------------------------------------------------

  /**
   * Starts an agent: its HTTP server (state and files endpoints) listens on
   * a port of its own, then it registers with the master and its resources
   * are offered. Re-registers a removed agent when `spec.id` names it.
   */
  async addAgent(
    spec: AgentSpec,
    recovered?: {
      total: readonly Resource[];
      spec: AgentSpec;
      dynamic: boolean;
      port: number | undefined;
    },
  ): Promise<string> {
    const id = spec.id ?? `${this.config.masterId}-S${this.agentSeq++}`;
    if (this.agents.has(id) || this.startingAgents.has(id)) {
      throw new Error(`agent ${id} is already registered`);
    }
    this.startingAgents.add(id);
    let server: http.Server;
    try {
      server = await startAgentServer(this, id, this.config.ip, recovered?.port);
    } finally {
      this.startingAgents.delete(id);
    }
    const hostname = spec.hostname ?? `agent-${id.split("-").pop() ?? id}.sim.local`;
    if (this.maintenance.modeOf({ hostname, ip: this.config.ip }) === "DOWN") {
      server.close();
      throw new Error(`machine ${hostname} (${this.config.ip}) is DOWN for maintenance`);
    }
    const port = (server.address() as AddressInfo).port;
    const url: URL = {
      scheme: "http",
      address: { hostname, ip: this.config.ip, port },
      path: `/${AGENT_PROCESS}`,
    };
    const agent = new SimAgent(
      id,
      hostname,
      ResourceBag.of(agentResources(spec)),
      agentAttributes(spec),
      url,
      spec.simulateTasks ?? false,
      server,
    );
    agent.spec = recovered?.spec ?? spec;
    agent.dynamic = recovered?.dynamic ?? this.started;
    // Reservations and persistent volumes as checkpointed.
    if (recovered !== undefined) agent.total = ResourceBag.of(recovered.total);
    this.agents.set(id, agent);
    this.checkpointAgent(agent);
    if (this.removedAgents.delete(id)) this.tasks.agentReregistered(id);
    this.allocator.schedule();
    return id;
  }

  /**
   * Agent failure: its tasks die and are reported TASK_UNREACHABLE
   * (partition-aware frameworks) or TASK_LOST, its offers are rescinded and
   * every framework gets FAILURE. `gone` = removed by an operator for good
   * (TASK_GONE_BY_OPERATOR for partition-aware frameworks).
   */
  removeAgent(agentId: string, opts: { gone?: boolean } = {}): void {
    const agent = this.agents.get(agentId);
    if (agent === undefined) throw new Error(`unknown agent ${agentId}`);
    const mode = opts.gone === true ? "gone" : "unreachable";
    this.agents.delete(agentId);
    this.removedAgents.set(agentId, mode);
    this.checkpoint?.append({ t: "agent_removed", id: agentId });
    agent.shutDown();
    this.allocator.rescindAgentOffers(agent);
    this.tasks.agentLost(agent, mode);
    for (const fw of this.frameworks.values()) {
      fw.send({ type: "FAILURE", failure: { agent_id: { value: agentId } } });
    }
  }

  // ---- maintenance (operator calls; maintenance.ts) ------------------------

  /**
   * START_MAINTENANCE: the machines go DOWN and their agents are removed, as
   * the operator took them down (their tasks: TASK_GONE_BY_OPERATOR to
   * partition-aware frameworks, TASK_LOST to others).
   */
  startMaintenance(machines: unknown): MaintenanceOutcome {
    const outcome = this.maintenance.start(machines);
    if (!outcome.ok) return outcome;
    for (const agent of [...this.agents.values()]) {
      const machine = { hostname: agent.hostname, ip: agent.url.address.ip ?? this.config.ip };
      if (!MaintenanceBook.matches(machine, machines as MachineID[])) continue;
      if (agent.spec) this.downAgents.push({ hostname: agent.hostname, spec: agent.spec });
      this.removeAgent(agent.id, { gone: true });
    }
    return outcome;
  }

  /** STOP_MAINTENANCE: the machines are UP; their agents start again (new agent ids). */
  stopMaintenance(machines: unknown): MaintenanceOutcome {
    const outcome = this.maintenance.stop(machines);
    if (!outcome.ok) return outcome;
    const back = this.downAgents.filter((d) =>
      MaintenanceBook.matches(
        { hostname: d.hostname, ip: this.config.ip },
        machines as MachineID[],
      ),
    );
    for (const d of back) {
      this.downAgents.splice(this.downAgents.indexOf(d), 1);
      const { id: _removedId, ...spec } = d.spec;
      void this.addAgent({ ...spec, hostname: d.hostname }).catch((err: unknown) =>
        this.config.log(`agent ${d.hostname} could not start after maintenance: ${String(err)}`),
      );
    }
    return outcome;
  }

  checkpointAgent(agent: SimAgent): void {
    this.checkpoint?.append({ t: "agent", agent: agentRecord(agent) });
  }

  agentStanding(agentId: string): AgentStanding {
    if (this.agents.has(agentId)) return "registered";
    return this.removedAgents.get(agentId) ?? "unknown";
  }

  newContainerId(): string {
    return randomUUID();
  }

  /** Cuts every subscription as a crashed master would (no ERROR, no clean end). */
  dropStreams(): void {
    for (const fw of this.frameworks.values()) fw.stream?.destroy();
  }

  /** Keeps every subscription's socket open but silent: a network partition. */
  silenceStreams(): void {
    for (const fw of this.frameworks.values()) fw.stream?.silence();
  }

  /**
   * `killTasks`: every task's process group is killed and awaited; else the
   * tasks run on for the next sim on the same checkpoint to adopt.
   */
  async stop(opts: { killTasks: boolean }): Promise<void> {
    this.allocator.stop();
    for (const fw of this.frameworks.values()) {
      if (fw.failoverTimer !== undefined) clearTimeout(fw.failoverTimer);
      fw.updates.clear();
      fw.stream?.close();
    }
    if (opts.killTasks) await this.tasks.destroyAll();
    else this.tasks.detachAll();
    for (const agent of this.agents.values()) agent.shutDown();
    this.checkpoint?.close();
  }
}
