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
  formatPair,
  testId,
}: {
  used: number;
  total: number;
  /** Accessible name: "CPU 3 of 16 cores". */
  label: string;
  format: (n: number) => string;
  /** Both numbers in one unit ("0 / 640 GB"); without it each is formatted alone. */
  formatPair?: (used: number, total: number) => string;
  testId?: string;
}) {
  const pct = percent(used, total);
  const pair = formatPair ? formatPair(used, total) : `${format(used)} / ${format(total)}`;
  const [usedText, totalText] = pair.includes(" / ") ? pair.split(" / ") : [pair, ""];
  return (
    <div className="min-w-28" data-testid={testId} title={pair}>
      {/* The native meter speaks to assistive tech; the bar below is what eyes see. */}
      <meter className="sr-only" aria-label={label} min={0} max={total} value={used} />
      <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-bar-track">
        <div
          className={`h-full rounded-full ${pct >= 90 ? "bg-warn" : "bg-allocation"}`}
          style={{ width: `${pct}%` }}
        />
      </div>
      <p className="mt-0.5 whitespace-nowrap text-xs tabular-nums">
        {usedText} <span className="text-muted">/ {totalText}</span>
      </p>
    </div>
  );
}
