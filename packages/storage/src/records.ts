/**
 * The records the storage gateway hands out: plain data, no Prisma types, so
 * nothing above storage depends on the ORM. The states, kinds and types they
 * name are the engine's vocabulary.
 */
import type {
  GoalState,
  HostState,
  JobState,
  JobType,
  ReservationType,
  ResourceKind,
  TaskState,
} from "@peloton/engine";

export interface PoolResourceRecord {
  reservation: number;
  limit: number;
  share: number;
  type: ReservationType;
}

export interface PoolRecord {
  id: string;
  seq: number;
  parentId: string | null;
  path: string;
  name: string;
  owningTeam: string;
  ldapGroups: string[];
  description: string;
  policy: number;
  controllerLimitMaxPercent: number | null;
  slackLimitMaxPercent: number;
  version: number;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  resources: Record<ResourceKind, PoolResourceRecord>;
}

/** What the API's policy reads of a pool (docs/identity.md): who owns it, who may submit to it. */
export type PoolPolicyFacts = Pick<PoolRecord, "path" | "owningTeam" | "ldapGroups">;

/** The settings users edit; a pool's path and name are its identity. */
export type PoolSettings = Pick<
  PoolRecord,
  | "owningTeam"
  | "ldapGroups"
  | "description"
  | "policy"
  | "controllerLimitMaxPercent"
  | "slackLimitMaxPercent"
  | "resources"
>;

type PartialResources = Partial<Record<ResourceKind, Partial<PoolResourceRecord>>>;

export type NewPool = Pick<PoolRecord, "path" | "name"> &
  Partial<Omit<PoolSettings, "resources">> & {
    parentId: string | null;
    resources: PartialResources;
  };

/** The editable part of a pool; absent fields stay as they are. */
export type PoolUpdate = Partial<Omit<PoolSettings, "resources">> & {
  resources?: PartialResources;
};

/** Per pool and kind: what tasks wait for (demand) and hold (allocation), split by revocability. */
export interface PoolUsage {
  poolId: string;
  demand: Record<ResourceKind, number>;
  allocation: Record<ResourceKind, number>;
  slackDemand: Record<ResourceKind, number>;
  slackAllocation: Record<ResourceKind, number>;
}

export interface NewJob {
  id?: string;
  name: string;
  type: JobType;
  poolId: string;
  owner: string;
  /** The login that submitted it (jobs.submittedBy). */
  submittedBy?: string;
  owningTeam?: string;
  labels?: { key: string; value: string }[];
  priority?: number;
  preemptible?: boolean;
  revocable?: boolean;
  configYaml: string;
  config: unknown;
  state?: JobState;
  goalState?: GoalState;
  instanceCount: number;
}

export interface NewTask {
  jobId: string;
  instanceId: number;
  state: TaskState;
  goalState: GoalState;
  priority: number;
  preemptible: boolean;
  cpu: number;
  memMb: number;
  diskMb: number;
  gpu: number;
  revocable?: boolean;
  /** Counts against the pool's controller limit. */
  controller?: boolean;
  /** A DAEMON instance's host. */
  pinnedHost?: string | null;
  /** The job config version the instance runs (and should run); 1 when left out. */
  configVersion?: number;
}

export interface ClusterSummary {
  pools: number;
  jobs: number;
  jobsByState: Partial<Record<JobState, number>>;
  tasks: number;
  tasksByState: Partial<Record<TaskState, number>>;
  hosts: number;
  hostsByState: Partial<Record<HostState, number>>;
  /** Sum of UP and DRAINING hosts' resources. */
  capacity: Record<ResourceKind, number>;
  /** Resources held by tasks that are admitted, placed or running. */
  allocation: Record<ResourceKind, number>;
}
