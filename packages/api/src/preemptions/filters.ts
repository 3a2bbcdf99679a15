import type { PreemptionFilters } from "@peloton/storage";
import type { PreemptionFiltersValue } from "../schemas/preemptions.ts";

/** The validated filters as the storage gateway takes them. */
export function storageFilters(f: PreemptionFiltersValue): PreemptionFilters {
  return {
    ...(f.pool ? { pool: { path: f.pool, side: f.side, subtree: f.subtree } } : {}),
    ...(f.job ? { jobId: f.job } : {}),
    ...(f.instance !== undefined ? { instanceId: f.instance } : {}),
    ...(f.task ? { taskId: f.task } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.since ? { since: f.since } : {}),
    ...(f.until ? { until: f.until } : {}),
  };
}
