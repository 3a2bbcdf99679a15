"use client";
import type { SeriesRange } from "@peloton/api/schemas";
import { useQuery } from "@tanstack/react-query";
import { format } from "date-fns";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { EmptyState, Skeleton } from "@/components/ui/card";
import { formatResource, type Kind } from "@/lib/format";
import { formatAbsolute } from "@/lib/time";
import { useTRPC } from "@/lib/trpc";

const LINES = [
  {
    key: "entitlement",
    name: "entitlement",
    color: "var(--entitlement)",
    dash: undefined,
    width: 2,
  },
  { key: "allocation", name: "allocation", color: "var(--allocation)", dash: undefined, width: 2 },
  { key: "demand", name: "demand", color: "var(--warn)", dash: undefined, width: 1.5 },
  { key: "reservation", name: "reservation", color: "var(--fg)", dash: "4 3", width: 1 },
  { key: "limit", name: "limit", color: "var(--bad)", dash: "2 3", width: 1 },
] as const;

/** Entitlement, allocation and demand of one kind over a range, as steps (each sample holds until the next). */
export function EntitlementChart({
  path,
  kind,
  range,
}: {
  path: string;
  kind: Kind;
  range: SeriesRange;
}) {
  const trpc = useTRPC();
  const query = useQuery(trpc.pools.entitlementSeries.queryOptions({ path, range }));
  if (query.isPending) return <Skeleton className="h-64" />;
  if (query.isError)
    return (
      <EmptyState title="The history of this pool's numbers could not be loaded">
        {query.error.message}
      </EmptyState>
    );
  const series = query.data;
  const points = series.kinds[kind].map((p) => ({ ...p, t: p.at.getTime() }));
  if (points.length === 0)
    return (
      <EmptyState title={`No samples in the last ${range}`}>
        Samples are recorded whenever entitlements are recomputed: on every pool change, and every
        30 seconds while the scheduler runs. Choose a longer range, or come back in a minute.
      </EmptyState>
    );
  const from = series.from.getTime();
  const to = series.to.getTime();
  const long = to - from > 24 * 60 * 60 * 1000;
  const ticks = Array.from({ length: 7 }, (_, i) => from + ((to - from) * i) / 6);
  const tick = (t: number) => format(t, long ? "MMM d HH:mm" : "HH:mm");
  const value = (v: number) => formatResource(kind, v);
  return (
    <div className="h-64" data-testid="entitlement-chart" data-points={points.length}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={[from, to]}
            ticks={ticks}
            tickFormatter={tick}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis stroke="var(--muted)" fontSize={11} width={72} tickFormatter={value} />
          <Tooltip
            labelFormatter={(t) => formatAbsolute(Number(t))}
            formatter={(v) => value(Number(v))}
            contentStyle={{
              background: "var(--surface)",
              border: "1px solid var(--border)",
              borderRadius: 6,
            }}
            labelStyle={{ color: "var(--muted)" }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {LINES.map((l) => (
            <Line
              key={l.key}
              dataKey={l.key}
              name={l.name}
              type="stepAfter"
              stroke={l.color}
              strokeWidth={l.width}
              strokeDasharray={l.dash}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
