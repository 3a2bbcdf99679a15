import { KIND_COUNT } from "../../resources/kinds.ts";
import { amountLessOrEqual } from "../../resources/resources.ts";
import type { KindVector } from "../kind-vector.ts";

/** Rejection per kind, in kind order (cpu, gpu, memory, disk). */
export const INSUFFICIENT = [
  "INSUFFICIENT_CPU",
  "INSUFFICIENT_GPU",
  "INSUFFICIENT_MEMORY",
  "INSUFFICIENT_DISK",
] as const;

export type InsufficientCode = (typeof INSUFFICIENT)[number];

/**
 * The task fits in the host's free resources, kind by kind with ε slack
 * (`amountLessOrEqual`, Peloton's `LessThanOrEqual`); the first kind that
 * does not fit names the rejection. `free` is read from `at` (a host's offset
 * in the snapshot's flat array).
 */
export function resourcesFilter(
  ask: KindVector,
  free: KindVector,
  at = 0,
): InsufficientCode | null {
  for (let k = 0; k < KIND_COUNT; k++) {
    if (!amountLessOrEqual(ask[k]!, free[at + k]!)) return INSUFFICIENT[k]!;
  }
  return null;
}

/**
 * The task asks more than the host has in total, in some kind: no change of
 * what runs there could make room (the "bigger than every host" half of an
 * unresolvable reason). `total` is read from `at`.
 */
export function aboveTotal(ask: KindVector, total: KindVector, at = 0): boolean {
  for (let k = 0; k < KIND_COUNT; k++) {
    if (!amountLessOrEqual(ask[k]!, total[at + k]!)) return true;
  }
  return false;
}
