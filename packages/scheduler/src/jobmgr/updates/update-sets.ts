/**
 * Which instances a new update adds, changes and removes (Peloton's
 * instancesAdded / instancesUpdated / instancesRemoved). For a new config,
 * only instances whose launch changes are in `updated`; the rest are moved to
 * the new version at once, without a restart (`unchanged`).
 */
import { instanceConfigChanged, type JobConfig, type UpdateKind } from "@peloton/engine";

export interface NewUpdateSets {
  added: number[];
  updated: number[];
  removed: number[];
  /** Kept instances whose task config is the same in both versions. */
  unchanged: number[];
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

export function newUpdateSets(
  kind: UpdateKind,
  from: { config: JobConfig; instanceCount: number },
  to: { config: JobConfig; instanceCount: number },
): NewUpdateSets {
  if (kind !== "UPDATE")
    return { added: [], updated: range(0, from.instanceCount), removed: [], unchanged: [] };
  const kept = range(0, Math.min(from.instanceCount, to.instanceCount));
  const updated: number[] = [];
  const unchanged: number[] = [];
  for (const i of kept)
    (instanceConfigChanged(from.config, to.config, i) ? updated : unchanged).push(i);
  return {
    added: range(from.instanceCount, to.instanceCount),
    updated,
    removed: range(to.instanceCount, from.instanceCount),
    unchanged,
  };
}
