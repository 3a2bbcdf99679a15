"use client";
/**
 * Long tables render only the rows on screen (TanStack Virtual): the rows to
 * draw, and the spacer rows above and below that keep the scrollbar true.
 * Below `virtualFrom` rows every row is drawn (plain tables stay plain).
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, type RefObject, useEffect } from "react";

export interface VirtualRows<T> {
  rows: { row: T; index: number }[];
  padTop: number;
  padBottom: number;
  virtual: boolean;
}

export function useVirtualRows<T>(
  all: readonly T[],
  opts: {
    scroller: RefObject<HTMLElement | null>;
    rowPx: number;
    virtualFrom?: number;
    /** Called when the last rows come into view (load the next page). */
    onNearEnd?: () => void;
  },
): VirtualRows<T> {
  const virtual = all.length >= (opts.virtualFrom ?? 60);
  const virtualizer = useVirtualizer({
    count: all.length,
    getScrollElement: () => opts.scroller.current,
    estimateSize: () => opts.rowPx,
    overscan: 12,
    enabled: virtual,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const lastIndex = virtual ? (items.at(-1)?.index ?? 0) : all.length - 1;
  const { onNearEnd } = opts;
  useEffect(() => {
    if (onNearEnd && all.length > 0 && lastIndex >= all.length - 20) onNearEnd();
  }, [onNearEnd, lastIndex, all.length]);
  if (!virtual)
    return { rows: all.map((row, index) => ({ row, index })), padTop: 0, padBottom: 0, virtual };
  return {
    rows: items.map((i) => ({ row: all[i.index]!, index: i.index })),
    padTop: items[0]?.start ?? 0,
    padBottom: virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0),
    virtual,
  };
}

/** The spacer row standing in for rows above or below the drawn ones. */
export function PadRow({ height, colSpan }: { height: number; colSpan: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden style={{ height }}>
      <td colSpan={colSpan} />
    </tr>
  );
}

/**
 * The frame of a table whose rows may be virtualised: it scrolls (within 70%
 * of the window once virtual, where `scroller` is what the rows follow), and
 * its header stays in view.
 */
export function VirtualTableFrame({
  scroller,
  virtual,
  caption,
  testId,
  head,
  children,
}: {
  scroller: RefObject<HTMLDivElement | null>;
  virtual: boolean;
  /** What the table lists, for screen readers. */
  caption: ReactNode;
  testId: string;
  /** The header rows. */
  head: ReactNode;
  /** The body. */
  children: ReactNode;
}) {
  return (
    <div
      ref={scroller}
      className={`overflow-x-auto rounded-lg border border-border bg-surface ${virtual ? "max-h-[70vh] overflow-y-auto" : ""}`}
    >
      <table className="w-full border-collapse text-left" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 z-10 bg-surface text-xs text-muted">{head}</thead>
        {children}
      </table>
    </div>
  );
}
