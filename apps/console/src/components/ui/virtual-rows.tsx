"use client";
/**
 * Long tables render only the rows on screen (TanStack Virtual): the rows to
 * draw, and the spacer rows above and below that keep the scrollbar true.
 * Below `virtualFrom` rows every row is drawn (plain tables stay plain).
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { type RefObject, useEffect } from "react";

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
