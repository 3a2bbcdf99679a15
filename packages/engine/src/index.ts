/**
 * @peloton/engine — the pure scheduling core: resources, the pool tree and its
 * rules, the entitlement calculator, job configs and their rules, task and job
 * lifecycles, admission, placement and preemption. No I/O, no clocks, no
 * randomness.
 */

// Admission (per leaf pool: queues, checks, reasons)
export {
  type AdmissionResult,
  type AdmittedGang,
  admit,
  admitPool,
  type PoolAdmission,
  type WaitingGang,
} from "./admission/admit.ts";
export { firstKindOver } from "./admission/checks.ts";
export { describeAdmissionReason, describeNeverFit } from "./admission/describe.ts";
export type {
  AdmissionGang,
  AdmissionInput,
  AdmissionPool,
  ClusterShape,
  HostShape,
  PoolAllocation,
  TaskShape,
} from "./admission/input.ts";
export {
  type GangNeeds,
  hostHolds,
  type NeverFitBounds,
  whyNeverFits,
} from "./admission/never-fits.ts";
export { buildQueues, queueOf, queueOrder } from "./admission/queues.ts";
export {
  ADMISSION_QUEUES,
  type AdmissionQueue,
  type AdmissionReason,
  type AdmissionReasonCode,
  type NeverFitCause,
  type ShortfallReason,
} from "./admission/reasons.ts";
// Constraints (the normalised form shared by the job config and placement), their
// evaluation and words, and the host attributes with a meaning of their own
export { EXCLUSIVE_ATTRIBUTE, HOSTNAME_ATTRIBUTE } from "./constraints/attributes.ts";
export type {
  AndConstraint,
  Constraint,
  ConstraintCondition,
  ConstraintResult,
  Label,
  LabelConstraint,
  LabelConstraintKind,
  NotConstraint,
  OrConstraint,
} from "./constraints/constraint.ts";
export { describeConstraint } from "./constraints/describe.ts";
export {
  constraintAllows,
  constraintHasKind,
  constraintNamesExclusive,
  constraintNamesHostAttribute,
  evaluateConstraint,
  type LabelCounts,
} from "./constraints/evaluate.ts";
export {
  type ClusterCapacity,
  calculateEntitlement,
  computeEntitlement,
  type EntitlementOptions,
  type EntitlementResult,
} from "./entitlement/calculate.ts";
export {
  type CompiledPools,
  compilePools,
  describePoolListError,
  type PoolListError,
} from "./entitlement/compile.ts";
export {
  type EntitlementContractInput,
  entitlementContractSchema,
  parseEntitlementContract,
} from "./entitlement/contract.ts";
export { describeExplanation } from "./entitlement/describe.ts";
export type { ExplanationStep } from "./entitlement/explanation.ts";
export { entitlementInputFromTree } from "./entitlement/from-tree.ts";
// Entitlement
export type {
  EntitlementInput,
  EntitlementPoolConfig,
  EntitlementPoolInput,
} from "./entitlement/input.ts";
export {
  type EntitlementJson,
  entitlementOf,
  explanationOf,
  type PoolEntitlement,
  type PoolExplanation,
  toEntitlementJson,
} from "./entitlement/result.ts";
export {
  type HealthCheckSpec,
  hasEnabledHealthCheck,
  healthAfter,
  healthCheckSpecOf,
  initialHealthOf,
} from "./health/health-check-spec.ts";
// Job config (Peloton's job YAML, its rules, and what the scheduler reads off it)
export {
  type AssignedPort,
  PELOTON_INSTANCE_ID,
  PELOTON_JOB_ID,
  PELOTON_TASK_ID,
  taskEnvironment,
} from "./job-config/environment.ts";
export { gangsOf, type JobGang } from "./job-config/gangs.ts";
export { taskConfigFor } from "./job-config/merge.ts";
export { pelotonEnum } from "./job-config/peloton-enum.ts";
export { constraintSchema } from "./job-config/schema/constraint.ts";
export { type ContainerConfig, containerSchema } from "./job-config/schema/container.ts";
export {
  type JobConfig,
  type JobConfigInput,
  jobConfigSchema,
  type SlaConfig,
  slaSchema,
} from "./job-config/schema/job-config.ts";
export { labelListSchema, labelSchema } from "./job-config/schema/label.ts";
export {
  type PortConfig,
  portConfigSchema,
  type ResourceConfig as TaskResourceConfig,
  resourceConfigSchema as taskResourceConfigSchema,
  type TaskConfig,
  type TaskConfigInput,
  taskConfigSchema,
} from "./job-config/schema/task-config.ts";
export {
  jobKind,
  taskPreemptible,
  taskResources,
  taskRevocable,
} from "./job-config/task-traits.ts";
export {
  formatJobConfigProblem,
  JOB_CONFIG_PROBLEM_CODES,
  type JobConfigProblem,
  type JobConfigProblemCode,
} from "./job-config/validation/problems.ts";
export { DEFAULT_MAX_TASKS_PER_JOB } from "./job-config/validation/rules/instances.ts";
export {
  type JobConfigValidationOptions,
  validateJobConfig,
} from "./job-config/validation/validate.ts";
export { CRASH_LOOP_REASON, type CrashLoop, describeCrashLoop } from "./lifecycle/crash-loop.ts";
// Lifecycle (task and job states, transitions, Mesos updates, goal-state decisions)
export {
  type DaemonInstance,
  type DaemonPlan,
  type DaemonStop,
  daemonInstancesFor,
} from "./lifecycle/daemon.ts";
export { describeTaskDecision } from "./lifecycle/describe.ts";
export {
  DEFAULT_RESTART_BACKOFF,
  failureCountAfter,
  failureLimit,
  isSystemFailure,
  MAX_SYSTEM_FAILURE_ATTEMPTS,
  MAX_TASK_RETRIES,
  type RestartBackoff,
  restartDelayMs,
} from "./lifecycle/failures.ts";
export { coversEveryInstance, type InclusiveRange } from "./lifecycle/instance-scope.ts";
export {
  deriveJobState,
  type JobStateOptions,
  type TaskStateCounts,
} from "./lifecycle/job-state.ts";
export {
  describeRestartedRun,
  endOfKilledRun,
  JOB_UPDATE_REASON,
  type KilledRunEnd,
  RESTART_REQUESTED_REASON,
  restartKillOf,
} from "./lifecycle/kill-ends.ts";
export {
  describeMaxRunningHold,
  instancesToStart,
  isScheduled,
  MAX_RUNNING_INSTANCES_REASON,
  UNSCHEDULED_TASK_STATES,
} from "./lifecycle/max-running-instances.ts";
export {
  DEADLINE_EXCEEDED_REASON,
  describeDeadlineKill,
  isPastDeadline,
  runDeadline,
} from "./lifecycle/max-running-time.ts";
export {
  applyMesosUpdate,
  MESOS_TASK_STATES,
  type MesosStatus,
  type MesosTaskState,
  type MesosUpdateOutcome,
  PREEMPTED_REASON,
  taskStateFromMesos,
} from "./lifecycle/mesos.ts";
export {
  countsAsFailure,
  endedBySystem,
  isSystemReason,
  type RunEnd,
  type RunEndCause,
  runEndCause,
} from "./lifecycle/run-end.ts";
export {
  nextTaskAction,
  type TaskDecision,
  type TaskPolicy,
  type TaskSnapshot,
  taskPolicyFor,
} from "./lifecycle/task-decision.ts";
export { type TerminationStatus, terminationStatus } from "./lifecycle/termination-status.ts";
export {
  assertTransition,
  canTransition,
  describeTransitionRefusal,
  TASK_TRANSITIONS,
  type TransitionRefusal,
  type TransitionResult,
} from "./lifecycle/transitions.ts";
// Input limits: the bounds on everything a user sends, and the zod builders that apply them
export {
  boundedList,
  boundedNumber,
  boundedText,
  formatCount,
  numberAtMost,
  quoteClipped,
  type TextOptions,
} from "./limits/bounded.ts";
export * from "./limits/limits.ts";
export {
  describeEvictedRun,
  describeEvictionWait,
  type EvictionCandidate,
  type EvictionPlan,
  type EvictionWait,
  HOST_MAINTENANCE_REASON,
  planEvictions,
} from "./maintenance/evictions.ts";
// Placement (issue 6): a batch of tasks onto a host snapshot
export {
  describePlacement,
  describePlacementInputError,
  describeRejections,
  describeUnplaced,
} from "./placement/describe.ts";
export { exclusiveFilter } from "./placement/filters/exclusive.ts";
export { gpuFilter } from "./placement/filters/gpu.ts";
export {
  DEFAULT_HOSTS_TO_SCORE,
  DEFAULT_SPREAD_ATTRIBUTE,
  type PlacementHost,
  type PlacementHostState,
  type PlacementOptions,
  type PlacementStrategy,
  type PlacementTask,
  type PortRange,
  type PortRequest,
} from "./placement/input.ts";
export { placeTasks } from "./placement/place.ts";
export {
  type GangShortfall,
  type PlacementAsk,
  type PlacementInputError,
  type PlacementResult,
  REJECTION_CODES,
  type RejectionCode,
  type Rejections,
  type ScoreBreakdown,
  type TaskPlacement,
  type UnplacedReason,
  type UnplacedTask,
} from "./placement/result.ts";
export {
  SCORER_NAMES,
  type ScorerName,
  type ScorerWeights,
  type Scores,
  STRATEGY_WEIGHTS,
} from "./placement/scorers/strategy.ts";
export { validatePlacementInput } from "./placement/validate.ts";
export {
  CAN_NEVER_PLACE,
  isResolvableWaitingReason,
  UNRESOLVABLE_WAITING_REASONS,
  type UnplacedRowReason,
  unplacedRowReason,
} from "./placement/waiting-reasons.ts";
// Preemption (issue 7): inter- and intra-pool victims, each with its reason
export { type Beneficiary, lowestCommonAncestor } from "./preemption/beneficiary.ts";
export { decidePreemptions } from "./preemption/decide.ts";
export type {
  GangPreemption,
  GangPreemptionOutcome,
  InterPoolDecision,
  IntraPoolDecision,
  PoolNumbers,
  PoolPreemption,
  PreemptionDecision,
  PreemptionInputError,
  PreemptionResult,
} from "./preemption/decision.ts";
export {
  describeGangPreemption,
  describePreemption,
  describePreemptionInputError,
} from "./preemption/describe.ts";
export { preemptionPoolsOf } from "./preemption/from-entitlement.ts";
export {
  DEFAULT_PREEMPTION_PERIOD_SECONDS,
  DEFAULT_SUSTAINED_OVER_ALLOCATION_COUNT,
  type JobAvailability,
  type PendingGang,
  type PreemptionInput,
  type PreemptionPool,
  type PreemptionTask,
} from "./preemption/input.ts";
export {
  advanceOverAllocation,
  type Excess,
  excessOf,
  isOverAllocated,
} from "./preemption/over-allocation.ts";
export { CANDIDATE_STATES, compareCandidates, rankCandidates } from "./preemption/rank.ts";
export {
  advanceBaselines,
  type EntitlementBaselines,
  type EntitlementsAt,
  entitlementsAt,
  entitlementTakers,
  type PoolEntitlements,
} from "./preemption/takers.ts";
export { formatAmount, formatKindAmount, formatResources } from "./resources/format.ts";
// Resources
export {
  CPU,
  DISK,
  GPU,
  isResourceKind,
  KIND_COUNT,
  KIND_UNITS,
  MEMORY,
  RESOURCE_KINDS,
  type ResourceKind,
} from "./resources/kinds.ts";
export {
  addResources,
  amountLessOrEqual,
  EPSILON,
  isZeroResources,
  kindsExceeding,
  minResources,
  type Resources,
  resourcesEqual,
  resourcesLessOrEqual,
  subtractAmount,
  subtractResources,
  toResources,
  zeroResources,
} from "./resources/resources.ts";
export {
  aggregateUp,
  aggregateUsage,
  type PoolUsage,
  type PoolUsageInput,
} from "./respool/aggregate.ts";
// Pool tree
export {
  DEFAULT_RESOURCE_CONFIG,
  DEFAULT_SLACK_LIMIT_PERCENT,
  normalizePoolResources,
  type PoolConfigInput,
  type PoolResources,
  type ResourceConfig,
  type ResourceEntryInput,
  zeroPoolResources,
} from "./respool/config.ts";
export {
  describeNameProblem,
  describePathProblem,
  isAncestorPath,
  isValidPoolPath,
  joinPoolPath,
  lastSegment,
  type NameProblem,
  type ParsedPath,
  type PathProblem,
  parentPath,
  parsePoolPath,
  pathDepth,
  poolNameProblem,
  ROOT_PATH,
} from "./respool/path.ts";
export {
  ancestorsOf,
  buildPoolTree,
  describeTreeBuildError,
  findPool,
  findPoolById,
  isLeafPool,
  listPools,
  type PoolNode,
  type PoolRecord,
  type PoolTree,
  type TreeBuildError,
  type TreeBuildResult,
  walkPools,
} from "./respool/tree.ts";
export { describeValidationError } from "./respool/validation/describe.ts";
// Pool rules
export {
  errorsWithCode,
  type PoolValidationCode,
  type PoolValidationError,
} from "./respool/validation/errors.ts";
export type { PoolDeleteFacts } from "./respool/validation/rules/delete.ts";
export type { PoolJobsFacts } from "./respool/validation/rules/jobs.ts";
export {
  movedPath,
  type TreeSnapshot,
  validateCreate,
  validateDelete,
  validateMove,
  validateUpdate,
} from "./respool/validation/validate.ts";
// Updates (Peloton's update workflow: the planner, the instance sets, the words)
export * from "./updates/index.ts";
// The vocabulary (src/vocabulary/): every state, type and set of them the
// system names, declared here once and imported by storage, API, CLI and console.
export {
  HEALTH_STATE_LABELS,
  HEALTH_STATES,
  type HealthState,
} from "./vocabulary/health-states.ts";
export {
  CAPACITY_HOST_STATES,
  HOST_STATES,
  type HostState,
  MAINTENANCE_HOST_STATES,
} from "./vocabulary/host-states.ts";
export {
  isTerminalJobState,
  JOB_STATE_NUMBERS,
  JOB_STATES,
  JOB_TYPE_NUMBERS,
  JOB_TYPES,
  type JobState,
  type JobType,
  TERMINAL_JOB_STATES,
  UPDATE_STATES,
  type UpdateState,
} from "./vocabulary/job-states.ts";
export {
  PREEMPTION_KINDS,
  type PreemptionKind,
  RESOURCE_CLASSES,
  type ResourceClass,
} from "./vocabulary/preemption.ts";
export {
  RESERVATION_TYPE_NUMBERS,
  RESERVATION_TYPES,
  type ReservationType,
} from "./vocabulary/reservation-types.ts";
export { ROLE_LABELS, ROLES, type Role, roleAtLeast } from "./vocabulary/roles.ts";
export {
  ALLOCATING_TASK_STATES,
  FINISHED_TASK_STATES,
  GOAL_STATES,
  type GoalState,
  holdsAllocation,
  isFinishedTaskState,
  isStoppingTaskState,
  isTerminalTaskState,
  STARTING_TASK_STATES,
  STOPPING_TASK_STATES,
  TASK_STATE_NUMBERS,
  TASK_STATES,
  type TaskState,
  TERMINAL_TASK_STATES,
  UNPLACED_TASK_STATES,
  WAITING_TASK_STATES,
} from "./vocabulary/task-states.ts";
export {
  VOLUME_STATES,
  type VolumeState,
} from "./vocabulary/volume-states.ts";
