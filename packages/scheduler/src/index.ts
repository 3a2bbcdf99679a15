/**
 * @peloton/scheduler: the running system around the engine. Start-up lives in
 * `@peloton/scheduler/boot`; the loops (job manager, resource manager,
 * placement, host manager) are added here as they are built.
 */

export type { Scheduling, SchedulingTuning } from "./assembly/leader-loops.ts";
export {
  type SchedulerOptions,
  type SchedulerRuntime,
  startScheduler,
} from "./assembly/replica.ts";
export {
  type SchedulerServices,
  type SchedulerServicesOptions,
  schedulerServices,
} from "./assembly/services.ts";
export {
  LEASE_LIVE_MS,
  SCHEDULER_LEASE,
  type SchedulerStatus,
  schedulerStatus,
} from "./assembly/status.ts";
export type { Acting } from "./common/acting.ts";
export { LeaderElection, type LeaderElectionOptions, type LeaderTerm } from "./common/leader.ts";
export { createLogger, type Logger, silentLogger } from "./common/logger.ts";
export { PeriodicLoop, type PeriodicLoopOptions, type SchedulerLoop } from "./common/loop.ts";
export { DEMO_POOLS, demoPoolNames } from "./demo/demo-pools.ts";
export { ensureRootPool, ROOT_PATH, seedDemoData } from "./demo/seed.ts";
export {
  CLUSTER_KINDS,
  type ClusterConnection,
  type ClusterKind,
  clusterConnection,
  clusterLogs,
  DEFAULT_CLUSTER_KIND,
} from "./hostmgr/clusters.ts";
export {
  actOnHost,
  type HostAction,
  type HostActionFailure,
  type HostActionResult,
} from "./hostmgr/host-actions.ts";
export type * from "./hostmgr/host-adapter.ts";
export { maintenanceLoop } from "./hostmgr/maintenance-loop.ts";
export {
  describeTaskLogRefusal,
  type LogFile,
  type TaskLogChunk,
  type TaskLogReader,
  type TaskLogRefusal,
  type TaskLogRequest,
  type TaskLogResult,
} from "./hostmgr/task-logs.ts";
export { unfinishedTasksOf } from "./hostmgr/unfinished-tasks.ts";
export {
  createIdentityService,
  type IdentityFailure,
  type IdentityFailureKind,
  type IdentityResult,
  type IdentityService,
  placeholderEmail,
  type TokenCreation,
  type UserCreation,
  type UserUpdate,
} from "./identity/index.ts";
export {
  type ActionInstances,
  actOnJob,
  type JobAction,
  type JobActionFailure,
  type JobActionResult,
} from "./jobmgr/actions.ts";
export {
  type CreateJobFailure,
  type CreateJobResult,
  createJob,
  type JobSubmission,
} from "./jobmgr/create-job.ts";
export { createUpdate, type UpdateRequest } from "./jobmgr/updates/create-update.ts";
export type { UpdateFailure, UpdateResult } from "./jobmgr/updates/failures.ts";
export { actOnUpdate, type UpdateAction } from "./jobmgr/updates/update-actions.ts";
export type { UpdateDiffRequest, UpdateDiffResult } from "./jobmgr/updates/update-diff.ts";
export type { UpdateStepReport } from "./jobmgr/updates/update-loop.ts";
export { stepUpdate } from "./jobmgr/updates/update-step.ts";
export {
  type PreemptionFacts,
  preemptedStateOf,
  preemptionRowOf,
  type TaskFacts,
  type VictimFacts,
} from "./resmgr/preemption/row.ts";
export {
  DEFAULT_PREEMPTION_MIN_INTERVAL_MS,
  DEFAULT_PREEMPTION_PERIOD_MS,
  DEFAULT_SUSTAINED_PERIODS,
  type PreemptorCycle,
  PreemptorLoop,
  type PreemptorLoopOptions,
  type PreemptorTuning,
  rowOf as preemptorRowOf,
} from "./resmgr/preemptor-loop.ts";
export * from "./resmgr/respool/index.ts";
