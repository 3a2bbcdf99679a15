/**
 * Mesos v1 protocol messages as they travel in JSON (include/mesos/v1/mesos.proto).
 *
 * Field names are the proto names (snake_case), enums are strings and `bytes`
 * fields are base64 strings, exactly as the master's JSON codec writes them.
 * Only the messages and fields this project reads or writes are typed; the
 * rest (health checks, container details) are kept as opaque JSON so they
 * round-trip untouched.
 */

import type { TaskState, TaskStatusReason, TaskStatusSource } from "./enums.ts";

/** Every `*ID` message (FrameworkID, AgentID, OfferID, TaskID, ...) is `{value}`. */
export interface Id {
  value: string;
}
export type FrameworkID = Id;
export type AgentID = Id;
export type OfferID = Id;
export type TaskID = Id;
export type ExecutorID = Id;
export type ContainerID = Id;
export type OperationID = Id;

/** Opaque JSON we carry but do not interpret. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface Label {
  key: string;
  value?: string;
}
export interface Labels {
  labels?: Label[];
}

export interface Scalar {
  value: number;
}
export interface Range {
  begin: number;
  end: number;
}
export interface Ranges {
  range?: Range[];
}
export interface ValueSet {
  item?: string[];
}

export type ValueType = "SCALAR" | "RANGES" | "SET" | "TEXT";

export interface ReservationInfo {
  type?: "STATIC" | "DYNAMIC";
  role?: string;
  principal?: string;
  labels?: Labels;
}

export interface Volume {
  container_path: string;
  host_path?: string;
  mode: "RW" | "RO";
}

export interface DiskInfo {
  persistence?: { id: string; principal?: string };
  volume?: Volume;
  source?: Json;
}

export interface Resource {
  name: string;
  type: "SCALAR" | "RANGES" | "SET";
  scalar?: Scalar;
  ranges?: Ranges;
  set?: ValueSet;
  /** Deprecated by `reservations` but still written by masters ("*" = unreserved). */
  role?: string;
  /** Pre-refinement single reservation (Mesos < 1.4 format). */
  reservation?: ReservationInfo;
  reservations?: ReservationInfo[];
  allocation_info?: { role?: string };
  disk?: DiskInfo;
  revocable?: Record<string, never>;
  shared?: Record<string, never>;
  provider_id?: Id;
}

export interface Attribute {
  name: string;
  type: ValueType;
  scalar?: Scalar;
  ranges?: Ranges;
  set?: ValueSet;
  text?: { value: string };
}

export type FrameworkCapabilityType =
  | "REVOCABLE_RESOURCES"
  | "TASK_KILLING_STATE"
  | "GPU_RESOURCES"
  | "SHARED_RESOURCES"
  | "PARTITION_AWARE"
  | "MULTI_ROLE"
  | "RESERVATION_REFINEMENT"
  | "REGION_AWARE";

export interface FrameworkInfo {
  user: string;
  name: string;
  id?: FrameworkID;
  failover_timeout?: number;
  checkpoint?: boolean;
  role?: string;
  roles?: string[];
  hostname?: string;
  principal?: string;
  webui_url?: string;
  capabilities?: Array<{ type: FrameworkCapabilityType }>;
  labels?: Labels;
}

export interface Address {
  hostname?: string;
  ip?: string;
  port: number;
}

export interface URL {
  scheme: string;
  address: Address;
  path?: string;
}

export interface MasterInfo {
  id: string;
  /** IPv4 as a uint32 in network byte order read as little-endian (127.0.0.1 = 16777343). */
  ip: number;
  port: number;
  pid?: string;
  hostname?: string;
  version?: string;
  address?: Address;
}

export interface TimeInfo {
  nanoseconds: number | string;
}
/** int64 nanoseconds; JSON may carry it as a number or (proto3 style) a string. */
export interface DurationInfo {
  nanoseconds: number | string;
}

export interface Unavailability {
  start: TimeInfo;
  duration?: DurationInfo;
}

export interface Offer {
  id: OfferID;
  framework_id: FrameworkID;
  agent_id: AgentID;
  hostname: string;
  url?: URL;
  allocation_info?: { role?: string };
  resources?: Resource[];
  attributes?: Attribute[];
  executor_ids?: ExecutorID[];
  unavailability?: Unavailability;
}

export interface InverseOffer {
  id: OfferID;
  url?: URL;
  framework_id: FrameworkID;
  agent_id?: AgentID;
  unavailability: Unavailability;
  resources?: Resource[];
}

export interface EnvironmentVariable {
  name: string;
  type?: "VALUE" | "SECRET";
  value?: string;
  secret?: Json;
}

export interface CommandInfo {
  uris?: Array<{ value: string; executable?: boolean; extract?: boolean; cache?: boolean }>;
  environment?: { variables?: EnvironmentVariable[] };
  /** Default true: `value` runs through `/bin/sh -c`. */
  shell?: boolean;
  value?: string;
  /** With shell=false: argv, `arguments[0]` being argv[0]. */
  arguments?: string[];
  user?: string;
}

export interface KillPolicy {
  grace_period?: DurationInfo;
}

export interface ContainerInfo {
  type: "DOCKER" | "MESOS";
  [field: string]: Json;
}

export interface ExecutorInfo {
  type?: "UNKNOWN" | "DEFAULT" | "CUSTOM";
  executor_id: ExecutorID;
  framework_id?: FrameworkID;
  command?: CommandInfo;
  container?: ContainerInfo;
  resources?: Resource[];
  name?: string;
  labels?: Labels;
}

/** Mesos v1 HealthCheck (only the COMMAND and HTTP kinds are modelled). */
export interface HealthCheck {
  type: "COMMAND" | "HTTP" | "TCP" | "UNKNOWN";
  /** Mesos defaults: delay 15 s, interval 10 s, timeout 20 s, 3 failures, grace 10 s. */
  delay_seconds?: number;
  interval_seconds?: number;
  timeout_seconds?: number;
  consecutive_failures?: number;
  grace_period_seconds?: number;
  command?: CommandInfo;
  http?: { port: number; path?: string; scheme?: string; statuses?: number[] };
}

export interface TaskInfo {
  name: string;
  task_id: TaskID;
  agent_id: AgentID;
  resources?: Resource[];
  executor?: ExecutorInfo;
  command?: CommandInfo;
  container?: ContainerInfo;
  health_check?: HealthCheck;
  check?: Json;
  kill_policy?: KillPolicy;
  /** base64 */
  data?: string;
  labels?: Labels;
  discovery?: Json;
  max_completion_time?: DurationInfo;
  /** Values are `{value}` objects on the wire (mesos-sim also accepts bare numbers). */
  limits?: Record<string, { value: number | string } | number>;
}

export interface TaskGroupInfo {
  tasks: TaskInfo[];
}

export interface ContainerStatus {
  container_id?: ContainerID;
  network_infos?: Array<{ ip_addresses?: Array<{ protocol?: string; ip_address?: string }> }>;
  executor_pid?: number;
}

export interface TaskStatus {
  task_id: TaskID;
  state: TaskState;
  message?: string;
  source?: TaskStatusSource;
  reason?: TaskStatusReason;
  /** base64 */
  data?: string;
  agent_id?: AgentID;
  executor_id?: ExecutorID;
  /** Seconds since the epoch, fractional. */
  timestamp?: number;
  /** base64 of 16 bytes; present => the update must be acknowledged. */
  uuid?: string;
  healthy?: boolean;
  labels?: Labels;
  container_status?: ContainerStatus;
  unreachable_time?: TimeInfo;
}

export interface Filters {
  refuse_seconds?: number;
}

export interface Request {
  agent_id?: AgentID;
  resources?: Resource[];
}
