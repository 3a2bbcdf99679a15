import { formatCount } from "@/lib/format";

/**
 * The foot of a keyset-paged table: how many rows this page holds, back to
 * the first page, on to the next. Keyset pages have no numbers (no OFFSET on
 * big tables), so there is no "page 7 of 40" to show.
 */
export function KeysetPager({
  count,
  noun,
  onFirstPage,
  nextCursor,
  onNext,
  firstLabel = "← First page",
  nextLabel = "Next page →",
  order,
}: {
  count: number;
  /** Singular; an "s" is added for other counts. */
  noun: string;
  /** Whether this is the first page. */
  onFirstPage: boolean;
  nextCursor: string | null | undefined;
  onNext: (cursor: string | null) => void;
  firstLabel?: string;
  nextLabel?: string;
  /** Said after the count on the first page ("newest first"). */
  order?: string;
}) {
  // An empty first page has nothing to count or page through; the table's empty state speaks.
  if (count === 0 && onFirstPage) return null;
  return (
    <nav className="flex items-center justify-between text-xs text-muted" aria-label="Pages">
      <span>
        {formatCount(count)} {noun}
        {count === 1 ? "" : "s"} on this page
        {onFirstPage ? (order ? `, ${order}` : "") : " (not the first)"}
      </span>
      <span className="flex gap-3">
        {!onFirstPage && (
          <button
            type="button"
            className="text-accent hover:underline"
            onClick={() => onNext(null)}
          >
            {firstLabel}
          </button>
        )}
        {nextCursor && (
          <button
            type="button"
            className="text-accent hover:underline"
            onClick={() => onNext(nextCursor)}
          >
            {nextLabel}
          </button>
        )}
      </span>
    </nav>
  );
}
