/**
 * Free port ranges as sorted, disjoint, inclusive ranges: counting, looking a
 * port up, and taking ports out. Pure: every change returns new ranges, so a
 * gang's tentative placement is undone by putting the old array back.
 */
import type { PortRange } from "./input.ts";

/** Sorted by `begin`, overlapping or touching ranges merged. */
export function normalizePortRanges(ranges: readonly PortRange[]): PortRange[] {
  if (ranges.length === 0) return [];
  const sorted = [...ranges].sort((a, b) => a.begin - b.begin || a.end - b.end);
  const out: PortRange[] = [];
  let cur = { begin: sorted[0]!.begin, end: sorted[0]!.end };
  for (let i = 1; i < sorted.length; i++) {
    const r = sorted[i]!;
    if (r.begin <= cur.end + 1) cur.end = Math.max(cur.end, r.end);
    else {
      out.push(cur);
      cur = { begin: r.begin, end: r.end };
    }
  }
  out.push(cur);
  return out;
}

export function portCount(ranges: readonly PortRange[]): number {
  let n = 0;
  for (const r of ranges) n += r.end - r.begin + 1;
  return n;
}

/** Binary search in normalized ranges. */
export function portIsFree(ranges: readonly PortRange[], port: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (port < r.begin) hi = mid - 1;
    else if (port > r.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The ranges without the given ports (which must be free). */
export function removePorts(ranges: readonly PortRange[], ports: readonly number[]): PortRange[] {
  if (ports.length === 0) return [...ranges];
  const taken = [...ports].sort((a, b) => a - b);
  const out: PortRange[] = [];
  let t = 0;
  for (const r of ranges) {
    let begin = r.begin;
    while (t < taken.length && taken[t]! < begin) t++;
    while (t < taken.length && taken[t]! <= r.end) {
      const p = taken[t]!;
      if (p > begin) out.push({ begin, end: p - 1 });
      begin = p + 1;
      t++;
    }
    if (begin <= r.end) out.push({ begin, end: r.end });
  }
  return out;
}

/**
 * The lowest `count` free ports that are not in `exclude` (the task's static
 * ports), lowest first: deterministic, and it keeps high ranges whole.
 * Assumes enough are free (the ports filter checked).
 */
export function lowestFreePorts(
  ranges: readonly PortRange[],
  count: number,
  exclude: readonly number[],
): number[] {
  const out: number[] = [];
  for (const r of ranges) {
    for (let p = r.begin; p <= r.end && out.length < count; p++) {
      if (!exclude.includes(p)) out.push(p);
    }
    if (out.length === count) break;
  }
  return out;
}
