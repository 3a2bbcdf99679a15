/**
 * @peloton/storage: PostgreSQL through Prisma, behind typed repositories.
 * Start-up (embedded server, migrations) lives in `@peloton/storage/bootstrap`.
 */
export { createDb, type Db, type DbOptions } from "./client.ts";
export {
  type DatabaseErrorFacts,
  databaseErrorFacts,
  FENCED_SQLSTATE,
  isDatabaseUnavailable,
  isFencedOut,
  isTransientConflict,
} from "./database-errors.ts";
export { NotFoundError, VersionConflictError } from "./errors.ts";
export {
  createGateway,
  type GatewayOptions,
  type Repositories,
  type StorageGateway,
} from "./gateway.ts";
export { type LeaseFence, leaderApplicationName } from "./leases/fence.ts";
export { LeaseSession, type LeaseSessionOptions } from "./leases/lease-session.ts";
export {
  CHANGE_CHANNEL,
  CHANGE_TOPICS,
  type Change,
  type ChangeTopic,
  decodeChange,
  encodeChange,
} from "./live/change.ts";
export {
  ChangeListener,
  type ChangeListenerOptions,
  type ListenerState,
} from "./live/listener.ts";
export {
  type ReadOnlyGateway,
  type ReadOnlyRepositories,
  readOnlyView,
} from "./read-only.ts";
export * from "./records.ts";
export {
  addHeld,
  type KindAmounts,
  type PendingTaskRow,
  type PoolHeld,
} from "./repositories/admission-reads.ts";
export type {
  AttentionHostRecord,
  AttentionJobRecord,
  FailedUpdateRecord,
} from "./repositories/attention-reads.ts";
export {
  AUDIT_OUTCOMES,
  type AuditEntry,
  type AuditFacets,
  type AuditOutcome,
  type AuditQuery,
  type AuditRecord,
} from "./repositories/audit.ts";
export type { FrameworkRecord, LeaseRecord } from "./repositories/cluster-identity.ts";
export type {
  EntitlementSampleRecord,
  SampleSeries,
} from "./repositories/entitlement-samples.ts";
export type {
  EvictionCandidateRow,
  HostTaskRecord,
  MaintenanceActor,
  MaintenanceEventKind,
  MaintenanceEventRecord,
  MaintenanceRequestResult,
  MaintenanceWork,
} from "./repositories/host-maintenance.ts";
export {
  type ClusterHost,
  HOST_SORT_KEYS,
  type HostListQuery,
  type HostRecord,
  type HostShapeRecord,
  type HostSortKey,
  type HostUpsert,
} from "./repositories/hosts.ts";
export {
  type ApiTokenRecord,
  CREDENTIAL_PROVIDER,
  type NewApiToken,
  type NewUser,
  type TeamRecord,
  type UserChange,
  type UserQuery,
  type UserRecord,
} from "./repositories/identity.ts";
export {
  JOB_SORT_KEYS,
  type JobCountsRecord,
  type JobDetailRecord,
  type JobIntentWrite,
  type JobListQuery,
  type JobRecord,
  type JobSortKey,
  type JobStateWrite,
} from "./repositories/jobs.ts";
export type {
  HostFacts,
  PlacedTaskRow,
  ReadyTaskRow,
} from "./repositories/placement-reads.ts";
export type { Page, PoolChangeRecord } from "./repositories/pool-history.ts";
export { type PoolSnapshotJson, poolSnapshot } from "./repositories/pool-mapping.ts";
export {
  PREEMPTED_REASON,
  PREEMPTOR_SOURCE,
} from "./repositories/preemptions/record.ts";
export {
  type Amounts,
  type BeneficiaryNumbers,
  type GangNumbers,
  type NewPreemption,
  POOL_SIDES,
  type PoolSide,
  type PreemptedState,
  type PreemptionBeneficiary,
  type PreemptionCountRow,
  type PreemptionFilters,
  type PreemptionListQuery,
  type PreemptionNumbers,
  type PreemptionRecord,
  type PreemptionRecordOutcome,
  type PreemptionVictim,
  type RescheduledRun,
} from "./repositories/preemptions/types.ts";
export type {
  JobAvailabilityRow,
  PoolStateUsage,
  PreemptorTaskRow,
} from "./repositories/preemptor-reads.ts";
export type {
  JobHitRecord,
  TaskHitRecord,
  VolumeHitRecord,
} from "./repositories/search-reads.ts";
export type {
  TaskChange,
  TaskChangesOutcome,
  TaskColumnWrites,
  TaskEventWrite,
} from "./repositories/task-changes.ts";
export type { TaskEventRecord, TaskRunRecord } from "./repositories/task-history.ts";
export type { InstanceRange, TaskIntentQuery } from "./repositories/task-intents.ts";
export {
  TASK_SORT_KEYS,
  type TaskListQuery,
  type TaskRecord,
  type TaskRuntimeRecord,
  type TaskSortKey,
} from "./repositories/task-reads.ts";
export type { DeadlineRunRow, TaskRunRow } from "./repositories/task-runs.ts";
export {
  VOLUME_SORT_KEYS,
  type VolumeFacets,
  type VolumeListQuery,
  type VolumeRecord,
  type VolumeSortKey,
} from "./repositories/volume-reads.ts";
export type { VolumePin } from "./repositories/volumes.ts";
export { type RetryPolicy, retryTransientConflicts, retryWaitMs } from "./retry.ts";

import { createDb, type DbOptions } from "./client.ts";
import { createGateway, type GatewayOptions, type StorageGateway } from "./gateway.ts";

/**
 * A gateway over its own client for `databaseUrl`. With `fence`, every write
 * through it is refused by the database once the lease leaves that epoch.
 */
export function openGateway(
  databaseUrl: string,
  opts: DbOptions & GatewayOptions = {},
): StorageGateway {
  return createGateway(createDb(databaseUrl, opts), opts);
}
export type {
  ConfigVersionRecord,
  ConfigVersionSummary,
} from "./repositories/job-config-versions.ts";
export type {
  JobUpdateRecord,
  JobUpdateWrite,
  NewJobUpdate,
  UpdateEventRecord,
  UpdateInstanceSets,
} from "./repositories/job-updates.ts";
export type { InstanceResources, UpdateInstanceRow } from "./repositories/update-instances.ts";
export { type Clock, type ClockTimer, sleep, systemClock } from "./time/clock.ts";
