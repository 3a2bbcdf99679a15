/** The master's records of frameworks, tasks, executors and offers in mesos-sim. */

import type { TaskState } from "../proto/enums.ts";
import type { FrameworkInfo, TaskInfo, TaskStatus } from "../proto/messages.ts";
import type { ResourceBag } from "../resources/bag.ts";
import type { RunRecord } from "./checkpoint/records.ts";
import type { EventStream } from "./event-stream.ts";
import type { TaskRun } from "./executor-process.ts";
import type { RefusalFilter } from "./filters.ts";
import type { HealthChecker } from "./health-checker.ts";
import type { StatusUpdateQueue } from "./status-updates.ts";

export interface SimTask {
  frameworkId: string;
  taskId: string;
  agentId: string;
  executorId: string;
  containerId: string;
  info: TaskInfo;
  /** What the task holds on its agent (released at its terminal update). */
  resources: ResourceBag;
  /** Latest state the agent reported. */
  state: TaskState;
  run: TaskRun | undefined;
  /** Absent for simulated runs, which write no files. */
  sandbox: string | undefined;
  /** Executor id when the task belongs to a LAUNCH_GROUP. */
  group: string | undefined;
  killRequested: boolean;
  /** Its agent was lost: reported UNREACHABLE (partition-aware) or LOST. */
  unreachable: boolean;
  /** How it runs, as checkpointed (pid and start time of its process, or its simulated run). */
  runRecord: RunRecord | undefined;
  /** Its health check, while it runs one. */
  healthChecker?: HealthChecker | undefined;
  /** A health check asked for its kill: its terminal update says `healthy: false`. */
  killedUnhealthy?: boolean;
}

/** The executor of a LAUNCH_GROUP; its resources are held until its last task ends. */
export interface SimExecutor {
  executorId: string;
  agentId: string;
  resources: ResourceBag;
  containerId: string;
  tasks: Set<string>;
}

export interface SimOffer {
  id: string;
  frameworkId: string;
  agentId: string;
  role: string;
  resources: ResourceBag;
  /** ms since the epoch; undefined = never rescinded for age. */
  expiresAt: number | undefined;
}

export class SimFramework {
  stream: EventStream | undefined;
  disconnectedAt: number | undefined;
  failoverTimer: NodeJS.Timeout | undefined;
  readonly tasks = new Map<string, SimTask>();
  readonly unreachable = new Map<string, SimTask>();
  /** LAUNCH_GROUP executors, keyed `${agentId}/${executorId}`. */
  readonly executors = new Map<string, SimExecutor>();
  readonly filters: RefusalFilter[] = [];
  readonly offers = new Set<string>();
  suppressed = new Set<string>();
  updates!: StatusUpdateQueue;

  constructor(
    readonly id: string,
    public info: FrameworkInfo,
  ) {}

  get roles(): string[] {
    if (this.info.roles !== undefined && this.info.roles.length > 0) return this.info.roles;
    return [this.info.role ?? "*"];
  }

  has(capability: string): boolean {
    return this.info.capabilities?.some((c) => c.type === capability) ?? false;
  }

  get partitionAware(): boolean {
    return this.has("PARTITION_AWARE");
  }

  get connected(): boolean {
    return this.stream !== undefined && !this.stream.closed;
  }

  /** Sends an event if subscribed; events for a disconnected framework are dropped, as in Mesos. */
  send(event: Parameters<EventStream["send"]>[0]): boolean {
    if (this.stream === undefined || this.stream.closed) return false;
    this.stream.send(event);
    return true;
  }

  sendStatus(status: TaskStatus): boolean {
    return this.send({ type: "UPDATE", update: { status } });
  }
}
