import { KIND_COUNT } from "../../resources/kinds.ts";
import type { KindVector } from "../kind-vector.ts";

/**
 * How full one kind of the host is after the task lands, 0–1, or null when
 * the host has none of it (the zero-capacity guard).
 */
export function usedFractionAfter(ask: number, free: number, total: number): number | null {
  if (!(total > 0)) return null;
  const used = (total - free + ask) / total;
  return used <= 0 ? 0 : used >= 1 ? 1 : used;
}

/**
 * PACK_HOST (Peloton's batch strategy; Kubernetes' MostAllocated): the host
 * that is fullest after the placement scores highest, so batch work fills
 * hosts one by one and leaves others whole. The mean used fraction over the
 * kinds the host has, on 0–100. `free` and `total` are read from `at`.
 */
export function packScore(ask: KindVector, free: KindVector, total: KindVector, at = 0): number {
  let sum = 0;
  let kinds = 0;
  for (let k = 0; k < KIND_COUNT; k++) {
    const f = usedFractionAfter(ask[k]!, free[at + k]!, total[at + k]!);
    if (f === null) continue;
    sum += f;
    kinds++;
  }
  return kinds === 0 ? 0 : (100 * sum) / kinds;
}
