/**
 * The instance sets of a rollback (pure): the instances the forward update
 * touched go back to the old version by the same batching. Instances it
 * added are removed again, instances it removed come back, and instances it
 * never reached are left alone (they are still on the old version).
 */
export interface ForwardSets {
  added: readonly number[];
  updated: readonly number[];
  removed: readonly number[];
  done: readonly number[];
  failed: readonly number[];
  current: readonly number[];
}

export interface RollbackSets {
  added: number[];
  updated: number[];
  removed: number[];
}

export function rollbackSets(forward: ForwardSets): RollbackSets {
  const touched = new Set([...forward.done, ...forward.failed, ...forward.current]);
  return {
    // Added instances go (those never started have no row: done at once).
    removed: [...forward.added],
    updated: forward.updated.filter((i) => touched.has(i)),
    added: forward.removed.filter((i) => touched.has(i)),
  };
}
