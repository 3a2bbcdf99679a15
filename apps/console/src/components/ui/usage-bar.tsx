import { percent } from "@/lib/format";

/**
 * Used against total as a thin bar with the numbers beside it. Turns to the
 * warning colour past 90 %, so full hosts stand out in a long table.
 */
export function UsageBar({
  used,
  total,
  label,
  format,
  testId,
}: {
  used: number;
  total: number;
  /** Accessible name: "CPU 3 of 16 cores". */
  label: string;
  format: (n: number) => string;
  testId?: string;
}) {
  const pct = percent(used, total);
  return (
    <div className="min-w-28" data-testid={testId} title={`${format(used)} of ${format(total)}`}>
      {/* The native meter speaks to assistive tech; the bar below is what eyes see. */}
      <meter className="sr-only" aria-label={label} min={0} max={total} value={used} />
      <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-bar-track">
        <div
          className={`h-full rounded-full ${pct >= 90 ? "bg-warn" : "bg-allocation"}`}
          style={{ width: `${pct}%` }}
        />
      </div>
      <p className="mt-0.5 whitespace-nowrap text-xs tabular-nums">
        {format(used)} <span className="text-muted">/ {format(total)}</span>
      </p>
    </div>
  );
}
