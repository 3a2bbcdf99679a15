export { type BatchState, type UpdateBatch, updateBatches } from "./batches.ts";
export { instanceConfigChanged } from "./config-change.ts";
export { describeUpdateStep, type StepFacts } from "./describe.ts";
export {
  type InstanceProgress,
  instanceProgress,
  type UpdateInstanceFacts,
  type UpdateRole,
} from "./instance-progress.ts";
export {
  planUpdateStep,
  type UpdatePlan,
  type UpdatePlanInput,
  type UpdateStepReason,
} from "./planner.ts";
export { type ForwardSets, type RollbackSets, rollbackSets } from "./rollback.ts";
export {
  ACTIVE_UPDATE_STATES,
  effectiveBatchSize,
  isActiveUpdateState,
  RUNNING_UPDATE_STATES,
  UPDATE_KINDS,
  type UpdateKind,
  type UpdateOptions,
} from "./vocabulary.ts";
