"use client";
/**
 * The console's table: TanStack Table (headless) for columns, tree rows and
 * expansion; TanStack Virtual once there are many rows; the keyboard to move
 * through rows (↑ ↓ Home End), open one (Enter) and expand or collapse a
 * tree row (→ ←).
 */
import {
  type ColumnDef,
  createColumnHelper,
  createExpandedRowModel,
  type ExpandedState,
  type Row,
  type RowData,
  rowExpandingFeature,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type HTMLAttributes, type KeyboardEvent, useRef, useState } from "react";

export const dataTableFeatures = tableFeatures({
  rowExpandingFeature,
  expandedRowModel: createExpandedRowModel(),
});
type Features = typeof dataTableFeatures;

/** Column builders for a DataTable of `T`. */
export function tableColumns<T extends RowData>() {
  return createColumnHelper<Features, T>();
}

export type DataTableColumn<T extends RowData> = ColumnDef<Features, T>;
export type DataTableRow<T extends RowData> = Row<Features, T>;

export interface DataTableProps<T extends RowData> {
  /** What the table lists, for screen readers. */
  caption: string;
  data: readonly T[];
  // biome-ignore lint/suspicious/noExplicitAny: column value types differ per column (TanStack's own ColumnDef arrays are typed this way)
  columns: ColumnDef<Features, T, any>[];
  getRowId: (row: T) => string;
  /** Tree rows: a row's children. */
  getSubRows?: (row: T) => readonly T[] | undefined;
  expanded?: ExpandedState;
  onExpandedChange?: (expanded: ExpandedState) => void;
  /** Extra attributes of a row's <tr> (data-*, aria-current). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** Enter on a focused row. */
  onOpen?: (row: T) => void;
  /** Rows beyond this many are virtualised (only the visible ones are in the page). */
  virtualizeAbove?: number;
  estimatedRowHeight?: number;
  testId?: string;
}

export function DataTable<T extends RowData>({
  caption,
  data,
  columns,
  getRowId,
  getSubRows,
  expanded: expandedProp,
  onExpandedChange,
  rowProps,
  onOpen,
  virtualizeAbove = 200,
  estimatedRowHeight = 44,
  testId,
}: DataTableProps<T>) {
  const [ownExpanded, setOwnExpanded] = useState<ExpandedState>({});
  const expanded = expandedProp ?? ownExpanded;
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    getRowId: (row) => getRowId(row),
    ...(getSubRows ? { getSubRows: (row: T) => getSubRows(row) } : {}),
    state: { expanded },
    onExpandedChange: (updater) => {
      const next = typeof updater === "function" ? updater(expanded) : updater;
      if (onExpandedChange) onExpandedChange(next);
      else setOwnExpanded(next);
    },
  });
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length > virtualizeAbove;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimatedRowHeight,
    overscan: 12,
    enabled: virtual,
  });
  const [active, setActive] = useState(0);

  const focusRow = (index: number) => {
    const i = Math.max(0, Math.min(rows.length - 1, index));
    setActive(i);
    if (virtual) virtualizer.scrollToIndex(i);
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${i}"]`)?.focus(),
    );
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, row: DataTableRow<T>, i: number) => {
    if (e.target !== e.currentTarget) return; // keys inside a cell's own controls
    if (e.key === "ArrowDown") focusRow(i + 1);
    else if (e.key === "ArrowUp") focusRow(i - 1);
    else if (e.key === "Home") focusRow(0);
    else if (e.key === "End") focusRow(rows.length - 1);
    else if (e.key === "ArrowRight" && row.getCanExpand() && !row.getIsExpanded())
      row.toggleExpanded(true);
    else if (e.key === "ArrowLeft" && row.getIsExpanded()) row.toggleExpanded(false);
    else if (e.key === "Enter" && onOpen) onOpen(row.original);
    else return;
    e.preventDefault();
  };

  const items = virtual
    ? virtualizer.getVirtualItems()
    : rows.map((_, index) => ({ index, start: 0, end: 0 }));
  const padTop = virtual && items.length ? items[0]!.start : 0;
  const padBottom =
    virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const colCount = table.getAllLeafColumns().length;

  return (
    <div
      ref={scrollRef}
      className={`overflow-auto ${virtual ? "max-h-[70vh]" : ""}`}
      data-testid={testId}
    >
      <table
        className="w-full border-collapse text-left"
        role={getSubRows ? "treegrid" : undefined}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 z-10 bg-surface text-xs uppercase tracking-wide text-muted">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} className="border-b border-border">
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className="px-2 py-2 font-medium">
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden>
              <td colSpan={colCount} style={{ height: padTop }} />
            </tr>
          )}
          {items.map(({ index }) => {
            const row = rows[index]!;
            return (
              <tr
                key={row.id}
                data-index={index}
                tabIndex={index === active ? 0 : -1}
                aria-level={getSubRows ? row.depth + 1 : undefined}
                aria-expanded={row.getCanExpand() ? row.getIsExpanded() : undefined}
                onKeyDown={(e) => onKeyDown(e, row, index)}
                onFocus={() => setActive(index)}
                className="border-b border-border last:border-0 hover:bg-surface-2/60 focus-visible:bg-surface-2 focus-visible:outline-offset-[-2px]"
                {...rowProps?.(row.original)}
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="px-2 py-1.5 align-middle">
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden>
              <td colSpan={colCount} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
