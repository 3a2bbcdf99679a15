import Link from "next/link";
import type { ReactNode } from "react";
import { formatCount } from "@/lib/format";
import { TONE_DOT, type Tone } from "@/lib/states";

/** A row of state chips with counts, in a fixed order, zero states left out. */
export function StateCounts({
  counts,
  order,
  tone,
  testId,
  href,
}: {
  counts: Partial<Record<string, number>>;
  order: readonly string[];
  tone: (state: string) => Tone;
  testId: string;
  /** Where a chip leads (the list filtered to that state). */
  href?: (state: string) => string;
}) {
  const present = order.filter((s) => (counts[s] ?? 0) > 0);
  return (
    <ul className="flex flex-wrap gap-2" data-testid={testId}>
      {present.map((s) => (
        <li key={s} data-state={s}>
          <Chip
            href={href?.(s)}
            className="flex items-center gap-1.5 rounded-md border border-border bg-surface-2 px-2 py-1"
          >
            <span aria-hidden className={`size-2 rounded-full ${TONE_DOT[tone(s)]}`} />
            <span className="text-muted">{s}</span>
            <span className="font-semibold tabular-nums" data-testid={`${testId}-${s}`}>
              {formatCount(counts[s] ?? 0)}
            </span>
          </Chip>
        </li>
      ))}
    </ul>
  );
}

function Chip({
  href,
  className,
  children,
}: {
  href: string | undefined;
  className: string;
  children: ReactNode;
}) {
  return href ? (
    <Link href={href} className={`${className} hover:border-accent`}>
      {children}
    </Link>
  ) : (
    <span className={className}>{children}</span>
  );
}
