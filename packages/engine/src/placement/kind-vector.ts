import { KIND_COUNT, RESOURCE_KINDS } from "../resources/kinds.ts";
import type { Resources } from "../resources/resources.ts";

/**
 * Amounts per kind laid out `[cpu, gpu, memory, disk]` from an offset: how the
 * working snapshot keeps every host's free and total resources in one flat
 * array (`[host * KIND_COUNT + kind]`), so the hot loop allocates nothing.
 */
export type KindVector = ArrayLike<number>;

export function kindVector(r: Resources): Float64Array {
  const v = new Float64Array(KIND_COUNT);
  for (let k = 0; k < KIND_COUNT; k++) v[k] = r[RESOURCE_KINDS[k]!];
  return v;
}
