/**
 * The update's instances cut into batches of its batch size, each with where
 * it stands (the Updates tab's progress per batch). The window slides, so a
 * batch can be CURRENT while the one before still has an instance moving.
 */
export type BatchState = "DONE" | "CURRENT" | "WAITING" | "FAILED";

export interface UpdateBatch {
  index: number;
  instances: number[];
  state: BatchState;
}

export function updateBatches(
  order: readonly number[],
  batchSize: number,
  sets: { done: readonly number[]; failed: readonly number[]; current: readonly number[] },
): UpdateBatch[] {
  const done = new Set(sets.done);
  const failed = new Set(sets.failed);
  const current = new Set(sets.current);
  const size = Math.max(1, batchSize);
  const out: UpdateBatch[] = [];
  for (let i = 0; i < order.length; i += size) {
    const instances = order.slice(i, i + size);
    const state: BatchState = instances.some((x) => current.has(x))
      ? "CURRENT"
      : instances.some((x) => failed.has(x))
        ? "FAILED"
        : instances.every((x) => done.has(x))
          ? "DONE"
          : "WAITING";
    out.push({ index: out.length, instances, state });
  }
  return out;
}
