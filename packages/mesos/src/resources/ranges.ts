/** Arithmetic on Mesos `Value.Ranges` (inclusive [begin, end] intervals, e.g. ports). */
import type { Range } from "../proto/messages.ts";

/** Sorted, non-overlapping, adjacent intervals merged: the canonical form. */
export function normalizeRanges(ranges: readonly Range[]): Range[] {
  const sorted = ranges
    .filter((r) => r.end >= r.begin)
    .map((r) => ({ begin: r.begin, end: r.end }))
    .sort((a, b) => a.begin - b.begin);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && r.begin <= last.end + 1) {
      last.end = Math.max(last.end, r.end);
    } else {
      out.push(r);
    }
  }
  return out;
}

export function addRanges(a: readonly Range[], b: readonly Range[]): Range[] {
  return normalizeRanges([...a, ...b]);
}

/** `a` minus `b`; parts of `b` outside `a` are ignored. */
export function subtractRanges(a: readonly Range[], b: readonly Range[]): Range[] {
  let current = normalizeRanges(a);
  for (const cut of normalizeRanges(b)) {
    const next: Range[] = [];
    for (const r of current) {
      if (cut.end < r.begin || cut.begin > r.end) {
        next.push(r);
        continue;
      }
      if (cut.begin > r.begin) next.push({ begin: r.begin, end: cut.begin - 1 });
      if (cut.end < r.end) next.push({ begin: cut.end + 1, end: r.end });
    }
    current = next;
  }
  return current;
}

/** Every value of `inner` lies in `outer`. */
export function rangesContain(outer: readonly Range[], inner: readonly Range[]): boolean {
  const o = normalizeRanges(outer);
  return normalizeRanges(inner).every((r) => o.some((x) => x.begin <= r.begin && r.end <= x.end));
}

/** How many values the ranges hold (31000-31009 holds 10 ports). */
export function rangesSize(ranges: readonly Range[]): number {
  return ranges.reduce((n, r) => n + (r.end - r.begin + 1), 0);
}

/** Parses "31000-32000,33000-33010" or "[31000-32000, 33000-33010]" (the agent flag syntax). */
export function parseRanges(text: string): Range[] {
  const body = text.trim().replace(/^\[/, "").replace(/\]$/, "");
  if (body === "") return [];
  return normalizeRanges(
    body.split(",").map((part) => {
      const [b, e] = part.trim().split("-");
      const begin = Number(b);
      const end = e === undefined ? begin : Number(e);
      if (!Number.isInteger(begin) || !Number.isInteger(end) || end < begin) {
        throw new Error(`invalid range '${part.trim()}'`);
      }
      return { begin, end };
    }),
  );
}
