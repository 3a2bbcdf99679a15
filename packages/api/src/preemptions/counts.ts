/**
 * Preemption counts per pool over time (console.md: "with preemption counts
 * per pool over time"), shaped for a chart: one row of buckets, and per pool
 * its counts out, in and within, aligned with the buckets.
 */
import type { PreemptionCountRow, PreemptionFilters, ReadOnlyGateway } from "@peloton/storage";

/** Bucket sizes a chart reads well in, seconds: the smallest giving at most MAX_BUCKETS. */
const BUCKET_SECONDS = [
  60,
  300,
  900,
  1800,
  3600,
  3 * 3600,
  6 * 3600,
  12 * 3600,
  86400,
  7 * 86400,
  30 * 86400,
] as const;
const MAX_BUCKETS = 60;

export function bucketSecondsFor(spanMs: number): number {
  const wanted = spanMs / 1000 / MAX_BUCKETS;
  return BUCKET_SECONDS.find((b) => b >= wanted) ?? BUCKET_SECONDS.at(-1)!;
}

export interface PoolCountSeries {
  /** Null: the pools beyond the busiest ones, together. */
  pool: string | null;
  /** Inter-pool preemptions of the pool's tasks, per bucket. */
  out: number[];
  /** Inter-pool preemptions in its favour. */
  in: number[];
  /** Intra-pool preemptions within it. */
  within: number[];
  total: number;
}

export interface PreemptionCounts {
  since: Date;
  until: Date;
  bucketSeconds: number;
  /** The start of each bucket, oldest first. */
  buckets: Date[];
  /** Pools with any preemption in the range, the busiest first (the rest together last). */
  pools: PoolCountSeries[];
}

/** Series from the repository's rows (pure). */
export function countSeries(
  rows: readonly PreemptionCountRow[],
  range: { since: Date; until: Date; bucketSeconds: number },
): PreemptionCounts {
  const step = range.bucketSeconds * 1000;
  const first = Math.floor(range.since.getTime() / step) * step;
  const buckets: Date[] = [];
  for (let t = first; t < range.until.getTime(); t += step) buckets.push(new Date(t));
  const index = (d: Date) => Math.round((d.getTime() - first) / step);
  const byPool = new Map<string | null, PoolCountSeries>();
  for (const r of rows) {
    const i = index(r.bucket);
    if (i < 0 || i >= buckets.length) continue;
    let s = byPool.get(r.pool);
    if (!s) {
      const zeros = () => buckets.map(() => 0);
      s = { pool: r.pool, out: zeros(), in: zeros(), within: zeros(), total: 0 };
      byPool.set(r.pool, s);
    }
    s.out[i]! += r.out;
    s.in[i]! += r.in;
    s.within[i]! += r.within;
    s.total += r.out + r.in + r.within;
  }
  const pools = [...byPool.values()].sort(
    (a, b) =>
      Number(a.pool === null) - Number(b.pool === null) ||
      b.total - a.total ||
      String(a.pool).localeCompare(String(b.pool)),
  );
  return { ...range, buckets, pools };
}

const HOUR_MS = 3_600_000;

/**
 * Counts for the filters. Without `since`: from a little before the first
 * matching preemption (a tenth of the span, at least an hour's window), so
 * the first bars do not sit on the chart's edge.
 */
export async function preemptionCounts(
  gateway: ReadOnlyGateway,
  filters: PreemptionFilters,
  now: Date,
  topPools?: number,
): Promise<PreemptionCounts> {
  const until = filters.until ?? now;
  let since = filters.since;
  if (!since) {
    const first = (await gateway.preemptions.earliestAt(filters))?.getTime() ?? until.getTime();
    const padded = first - (until.getTime() - first) / 10;
    since = new Date(Math.min(padded, until.getTime() - HOUR_MS));
  }
  const bucketSeconds = bucketSecondsFor(Math.max(until.getTime() - since.getTime(), 60_000));
  const rows = await gateway.preemptions.countsByPool(
    { ...filters, since, until },
    bucketSeconds,
    topPools === undefined ? {} : { topPools },
  );
  return countSeries(rows, { since, until, bucketSeconds });
}
