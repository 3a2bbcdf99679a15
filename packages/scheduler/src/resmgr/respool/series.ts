/**
 * A pool's entitlement, allocation and demand over a time range, per kind, as
 * a step line: each stored sample holds until the next one.
 */
import type { ResourceKind } from "@peloton/engine";
import type { EntitlementSampleRecord, SampleSeries } from "@peloton/storage";

export interface SeriesPoint {
  readonly at: Date;
  readonly entitlement: number;
  readonly allocation: number;
  readonly demand: number;
  readonly reservation: number;
  readonly limit: number;
}

export interface PoolSeries {
  readonly from: Date;
  readonly to: Date;
  /** Samples closer than this were merged (the last of each bucket kept). */
  readonly bucketMs: number;
  /** Per kind: a point at `from` (the value then, when known), the samples, a point at `to`. */
  readonly kinds: Readonly<Record<ResourceKind, readonly SeriesPoint[]>>;
}

/** About this many points per line, whatever the range. */
const POINTS_PER_RANGE = 240;

export function seriesWindow(rangeMs: number, now: Date) {
  return {
    from: new Date(now.getTime() - rangeMs),
    to: now,
    bucketMs: Math.max(1000, Math.floor(rangeMs / POINTS_PER_RANGE)),
  };
}

const point = (s: EntitlementSampleRecord, at: Date = s.at): SeriesPoint => ({
  at,
  entitlement: s.entitlement,
  allocation: s.allocation,
  demand: s.demand,
  reservation: s.reservation,
  limit: s.limit,
});

/** Shapes stored samples into step lines that span the whole window (pure). */
export function shapeSeries(
  window: ReturnType<typeof seriesWindow>,
  stored: SampleSeries,
): PoolSeries {
  const line = (kind: ResourceKind): SeriesPoint[] => {
    const points: SeriesPoint[] = [];
    const before = stored.previous.find((s) => s.kind === kind);
    if (before) points.push(point(before, window.from));
    for (const s of stored.samples) if (s.kind === kind) points.push(point(s));
    const last = points.at(-1);
    if (last && last.at.getTime() < window.to.getTime()) points.push({ ...last, at: window.to });
    return points;
  };
  return {
    ...window,
    kinds: { cpu: line("cpu"), gpu: line("gpu"), memory: line("memory"), disk: line("disk") },
  };
}
