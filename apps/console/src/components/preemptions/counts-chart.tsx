"use client";
/**
 * Preemption counts over time as stacked bars: for one pool, what left it,
 * what came to it and what moved within it; for many pools, the preemptions
 * of each pool's tasks (the busiest pools, the rest together).
 */
import { format, isSameDay } from "date-fns";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { PreemptionCounts } from "@/lib/api-types";
import { formatRange } from "@/lib/time";

const POOL_COLORS = ["var(--accent)", "var(--warn)", "var(--ok)", "var(--bad)"];
/** How many of the busiest pools get their own colour (`top` of countsByPool). */
export const CHART_POOLS = POOL_COLORS.length;
const OTHERS = "other pools";

interface Series {
  key: string;
  name: string;
  color: string;
  values: number[];
}

function seriesOf(counts: PreemptionCounts, pool: string | null): Series[] {
  if (pool !== null) {
    const s = counts.pools.find((p) => p.pool === pool);
    const zeros = counts.buckets.map(() => 0);
    return [
      { key: "out", name: "preempted from it", color: "var(--bad)", values: s?.out ?? zeros },
      { key: "in", name: "in its favour", color: "var(--ok)", values: s?.in ?? zeros },
      {
        key: "within",
        name: "within it (priority)",
        color: "var(--warn)",
        values: s?.within ?? zeros,
      },
    ];
  }
  // Each preemption once, under its victim's pool; the server already put the
  // pools beyond the busiest under null ("other pools").
  return counts.pools
    .map((p) => ({ pool: p.pool, values: p.out.map((o, i) => o + p.within[i]!) }))
    .filter((p) => p.values.some((v) => v > 0))
    .map((p, i) => ({
      key: `p${i}`,
      name: p.pool ?? OTHERS,
      color: p.pool === null ? "var(--idle)" : POOL_COLORS[i % POOL_COLORS.length]!,
      values: p.values,
    }));
}

export function CountsChart({
  counts,
  pool = null,
  height = 160,
}: {
  counts: PreemptionCounts;
  /** One pool's in, out and within; null: every pool's tasks preempted. */
  pool?: string | null;
  height?: number;
}) {
  const series = seriesOf(counts, pool);
  const data = counts.buckets.map((b, i) => ({
    t: b.getTime(),
    ...Object.fromEntries(series.map((s) => [s.key, s.values[i]])),
  }));
  const long = counts.until.getTime() - counts.since.getTime() > 2 * 24 * 3_600_000;
  const step = counts.bucketSeconds * 1000;
  // Over days, one tick a day (the first bucket of each local day), not one
  // per few buckets labelled with the same date twice.
  const dayStarts = long
    ? data.map((d) => d.t).filter((t, i, all) => i === 0 || !isSameDay(t, all[i - 1]!))
    : [];
  return (
    <div
      style={{ height }}
      data-testid="preemption-counts-chart"
      data-buckets={counts.buckets.length}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} barCategoryGap={1}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" vertical={false} />
          <XAxis
            dataKey="t"
            {...(dayStarts.length > 1
              ? { ticks: dayStarts, interval: "preserveStartEnd" as const }
              : {})}
            tickFormatter={(t: number) => format(t, long ? "MMM d" : "HH:mm")}
            stroke="var(--muted)"
            fontSize={11}
            minTickGap={24}
          />
          <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={11} width={28} />
          <Tooltip
            labelFormatter={(t) => formatRange(Number(t), Number(t) + step)}
            contentStyle={{
              background: "var(--surface)",
              border: "1px solid var(--border)",
              borderRadius: 6,
              fontSize: 12,
            }}
            labelStyle={{ color: "var(--muted)" }}
            cursor={{ fill: "var(--surface-2)" }}
          />
          {/* In the series' order (out, in, within; busiest pool first), not alphabetical. */}
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stackId="n"
              fill={s.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
