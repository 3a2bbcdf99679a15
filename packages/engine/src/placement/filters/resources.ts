import { KIND_COUNT } from "../../resources/kinds.ts";
import { amountLessOrEqual } from "../../resources/resources.ts";
import type { KindVector } from "../kind-vector.ts";
import type { RejectionCode } from "../result.ts";

/** Rejection per kind, in kind order (cpu, gpu, memory, disk). */
export const INSUFFICIENT: readonly RejectionCode[] = [
  "INSUFFICIENT_CPU",
  "INSUFFICIENT_GPU",
  "INSUFFICIENT_MEMORY",
  "INSUFFICIENT_DISK",
];

/**
 * The task fits in the host's free resources, kind by kind with ε slack
 * (`amountLessOrEqual`, Peloton's `LessThanOrEqual`); the first kind that
 * does not fit names the rejection. `free` is read from `at` (a host's offset
 * in the snapshot's flat array).
 */
export function resourcesFilter(ask: KindVector, free: KindVector, at = 0): RejectionCode | null {
  for (let k = 0; k < KIND_COUNT; k++) {
    if (!amountLessOrEqual(ask[k]!, free[at + k]!)) return INSUFFICIENT[k]!;
  }
  return null;
}
