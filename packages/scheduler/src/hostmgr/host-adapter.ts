/**
 * The seam between the scheduler and the cluster it runs on. Everything
 * above the host manager (placement, the job manager) sees the cluster only
 * through `HostAdapter`; Mesos is the first implementation (hostmgr/mesos/),
 * a Kubernetes one (binding pods to nodes) is next. Nothing here names Mesos.
 *
 * Modelled on Peloton's host manager API: a placement round acquires the
 * free resources of chosen hosts (AcquireHostOffers), launches tasks on them
 * with that lease (LaunchTasks), and gives back what it did not use
 * (ReleaseHostOffers); kills carry a grace period (KillTasks).
 *
 *   cluster ──offers──▶ free resources per host ──acquire──▶ HostLease (placement round)
 *      ▲                                                        │ launch(lease, tasks)
 *      └──── status updates ──▶ onStatus(update) ──▶ acked after the handler's write commits
 *
 * A run's logs are read through the adapter too (`taskLog`, task-logs.ts).
 * A new cluster kind implements `HostAdapter` (and its loop), is built by a
 * `HostAdapterFactory` the composition root passes to the scheduler, and
 * registers its log reader in clusters.ts (see the scheduler's README).
 */
import type { HealthCheckSpec, TaskState } from "@peloton/engine";
import type { StorageGateway } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import type { SchedulerLoop } from "../common/loop.ts";
import type { TaskLogReader } from "./task-logs.ts";

/** Resources in the scheduler's units: cores, MB, MB, devices. */
export interface Resources {
  cpu: number;
  memMb: number;
  diskMb: number;
  gpu: number;
}

/** An inclusive range of port numbers. */
export interface PortRange {
  begin: number;
  end: number;
}

/** A host with what is free on it now (resources the adapter holds for the scheduler). */
export interface HostResources {
  hostname: string;
  /** The cluster manager's id of the host (a Mesos agent id, a Kubernetes node name). */
  hostId: string;
  attributes: Readonly<Record<string, string>>;
  free: Resources;
  freePorts: readonly PortRange[];
}

/**
 * The free resources of one host, taken out of the pool for one placement
 * round: nobody else may use them until they are launched on or released.
 */
export interface HostLease extends HostResources {
  leaseId: string;
}

/** A persistent volume a task mounts: created on first launch, reused after. */
export interface VolumeSpec {
  /** Stable id of the volume (the persistence id). */
  id: string;
  containerPath: string;
  sizeMb: number;
  /** True the first time: the adapter creates it (Mesos CREATE) before launching. */
  create: boolean;
}

/** One task to start on a leased host. */
export interface TaskLaunch {
  /** The id the cluster will know this run by (tasks.mesos_task_id). */
  taskId: string;
  name: string;
  resources: Resources;
  /** Named ports the task needs; the adapter picks free ones of the lease. */
  portNames?: readonly string[];
  /**
   * Named ports with the numbers placement chose (each must be free in the
   * lease); used instead of `portNames`.
   */
  ports?: Readonly<Record<string, number>>;
  command: {
    value: string;
    /** Run `value` through /bin/sh -c (default true); false = `value` is the program. */
    shell?: boolean;
    arguments?: readonly string[];
    environment?: Readonly<Record<string, string>>;
  };
  /** A container image, where the cluster runs containers. */
  image?: string;
  labels?: Readonly<Record<string, string>>;
  /** Seconds between the polite stop signal and the forced one. */
  killGracePeriodSeconds?: number;
  volume?: VolumeSpec;
  /** The health check the cluster runs on the task (absent: none). */
  healthCheck?: HealthCheckSpec;
}

export interface LaunchedTask {
  taskId: string;
  hostname: string;
  hostId: string;
  /** The ports given to the task, by name. */
  ports: Readonly<Record<string, number>>;
}

/**
 * Why a launch did not go out; nothing was started then, and the lease is
 * used up (its resources come back to the pool by themselves).
 */
export type LaunchRefusal =
  | { code: "LEASE_UNKNOWN"; leaseId: string }
  | { code: "DOES_NOT_FIT"; resource: keyof Resources | "ports"; needed: number; free: number }
  | { code: "NOT_CONNECTED" }
  | { code: "CLUSTER_ERROR"; message: string };

export type LaunchResult =
  | { ok: true; launched: LaunchedTask[] }
  | { ok: false; refusal: LaunchRefusal };

/** A task's state as the cluster reported it, translated to the scheduler's terms. */
export interface TaskStatusUpdate {
  taskId: string;
  state: TaskState;
  /** The cluster's own state name (TASK_FINISHED, ...), shown beside ours. */
  clusterState: string;
  /** A code from a closed set (REASON_COMMAND_EXECUTOR_FAILED, ...), or null. */
  reason: string | null;
  message: string | null;
  hostname: string | null;
  hostId: string | null;
  at: Date;
  /** True for answers to reconciliation (the cluster restating what it knows). */
  reconciliation: boolean;
  healthy: boolean | null;
}

/**
 * Receives every status update; the adapter acknowledges it to the cluster
 * only after the returned promise resolves (so only after the write
 * committed). A rejection leaves it unacknowledged: the cluster sends it again.
 */
export type StatusHandler = (update: TaskStatusUpdate) => Promise<void>;

/** Runs the cluster may still know: reconciled after every (re)connection. */
export type UnfinishedTasks = () => Promise<ReadonlyArray<{ taskId: string; hostId?: string }>>;

/** A host as its cluster's maintenance knows it: hostname, and its IP when known. */
export interface MaintenanceMachine {
  hostname: string;
  ip: string | null;
}

export type HostAdapterState = "connecting" | "connected" | "disconnected" | "stopped" | "failed";

export interface HostAdapter extends TaskLogReader {
  readonly state: HostAdapterState;
  /** Hosts with free resources now, not leased to a placement round. */
  hosts(): HostResources[];
  /** Leases the free resources of these hosts (those that have any) for one round. */
  acquire(hostnames: readonly string[]): HostLease[];
  /** Gives leased resources back to the pool (placement did not use them). */
  release(leaseIds: readonly string[]): void;
  /** Starts tasks on a leased host; uses the lease up, unused resources go back to the cluster. */
  launch(leaseId: string, tasks: readonly TaskLaunch[]): Promise<LaunchResult>;
  /** Stops a task: polite signal, forced after the grace period. The outcome comes as a status update. */
  kill(taskId: string, opts?: { hostId?: string; gracePeriodSeconds?: number }): Promise<void>;
  /** Asks the cluster to restate these tasks' states (all it knows when the list is empty). */
  reconcile(tasks: ReadonlyArray<{ taskId: string; hostId?: string }>): Promise<void>;
  /**
   * Puts the (drained) host into maintenance on the cluster (Mesos: schedule
   * and START_MAINTENANCE). Idempotent; rejects when the cluster refuses.
   */
  startMaintenance(host: MaintenanceMachine): Promise<void>;
  /** Takes the host out of the cluster's maintenance (Mesos: STOP_MAINTENANCE). Idempotent. */
  stopMaintenance(host: MaintenanceMachine): Promise<void>;
}

/** What the scheduler hands an adapter when the leader starts one (a term). */
export interface HostAdapterDeps {
  /** The term's (fenced) gateway: hosts, the stored subscription, volumes. */
  gateway: StorageGateway;
  log: Logger;
  /** Receives every status update; it is acknowledged after this resolves. */
  onStatus: StatusHandler;
  /** The runs to reconcile after every (re)connection. */
  unfinishedTasks: UnfinishedTasks;
  /** Status updates handed to `onStatus` at once. */
  statusConcurrency: number;
  /** Called after hosts were recorded as new, changed or gone (daemon jobs follow them). */
  onHostsChanged?: () => void;
}

/** An adapter as the leader runs it: the seam, a loop to start and stop, and readiness. */
export interface RunningHostAdapter extends HostAdapter, SchedulerLoop {
  /** Resolves once connected with the cluster's hosts recorded (bounded wait). */
  ready(timeoutMs?: number): Promise<void>;
}

/** Builds the leader's adapter for one term; chosen by the composition root (boot/). */
export type HostAdapterFactory = (deps: HostAdapterDeps) => RunningHostAdapter;
