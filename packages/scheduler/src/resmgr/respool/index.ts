/** Resource pools in the running system: the service behind the API and the entitlement sampler. */
export { judgeChange, type PoolChangeRequest, recordsAfter } from "./change.ts";
export {
  configOf,
  type PoolConfig,
  type StoredPoolConfig,
  settingsOf,
} from "./config.ts";
export { calculateSnapshot, numbersOf } from "./entitlements.ts";
export {
  diffPools,
  type FieldChange,
  type FieldValue,
  historyEntry,
  type PoolHistoryEntry,
} from "./history.ts";
export {
  type EntitlementMove,
  entitlementMoves,
  type PoolPreview,
  previewChange,
} from "./preview.ts";
export {
  createEntitlementSampler,
  type EntitlementSampler,
  type EntitlementSamplerOptions,
} from "./sampler.ts";
export { SampleMemory, samplesOf } from "./samples.ts";
export { type PoolSeries, type SeriesPoint, seriesWindow, shapeSeries } from "./series.ts";
export {
  createRespoolService,
  type PoolFailure,
  type PoolMutation,
  type RespoolService,
} from "./service.ts";
export { loadPoolSnapshot, type PoolSnapshot, snapshotOf, withRecords } from "./snapshot.ts";
export {
  type ClusterView,
  type KindExplanation,
  type ParentRoom,
  type PoolDetailView,
  type PoolKindDetail,
  type PoolKindView,
  type PoolTreeView,
  type PoolView,
  poolDetailView,
  poolTreeView,
} from "./views.ts";
