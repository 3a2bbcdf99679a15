"use client";
import type { ExpandedState } from "@tanstack/react-table";
import { ChevronDown, ChevronRight } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { DataTable, tableColumns } from "@/components/ui/data-table";
import type { PoolRow } from "@/lib/api-types";
import { KIND_LABEL } from "@/lib/format";
import { DISPLAY_KINDS, nestPools, type PoolTreeRow, poolHref } from "@/lib/pools";
import { KindCell } from "./kind-cell";

const col = tableColumns<PoolTreeRow>();

const columns = [
  col.display({
    id: "pool",
    header: "Pool",
    cell: ({ row }) => {
      const p = row.original;
      return (
        <div className="flex items-center gap-1" style={{ paddingLeft: `${row.depth * 1.25}rem` }}>
          {row.getCanExpand() ? (
            <button
              type="button"
              tabIndex={-1}
              onClick={row.getToggleExpandedHandler()}
              aria-label={`${row.getIsExpanded() ? "Collapse" : "Expand"} ${p.path}`}
              className="rounded p-0.5 text-muted hover:bg-surface-2 hover:text-fg"
            >
              {row.getIsExpanded() ? (
                <ChevronDown className="size-4" aria-hidden />
              ) : (
                <ChevronRight className="size-4" aria-hidden />
              )}
            </button>
          ) : (
            <span className="inline-block w-5" aria-hidden />
          )}
          <div className="min-w-0">
            <Link
              href={poolHref(p.path)}
              tabIndex={-1}
              className="font-medium hover:text-accent hover:underline"
            >
              {p.name}
            </Link>
            <p className="truncate font-mono text-xs text-muted">{p.path}</p>
          </div>
        </div>
      );
    },
  }),
  col.accessor("owningTeam", {
    header: "Team",
    cell: (info) => <span className="whitespace-nowrap text-muted">{info.getValue() || "—"}</span>,
  }),
  ...DISPLAY_KINDS.map((kind) =>
    col.display({
      id: kind,
      header: KIND_LABEL[kind],
      cell: ({ row }) => <KindCell kind={kind} n={row.original.resources[kind]} />,
    }),
  ),
  col.accessor("jobs", {
    header: () => <span className="block text-right">Jobs</span>,
    cell: (info) => <span className="block text-right tabular-nums">{info.getValue()}</span>,
  }),
];

/** The pools under the root and the one level below open at first; the rest on demand. */
export function initialExpanded(pools: readonly PoolRow[]): ExpandedState {
  return Object.fromEntries(pools.filter((p) => p.depth === 1).map((p) => [p.path, true]));
}

export function PoolTreeTable({
  pools,
  expanded,
  onExpandedChange,
}: {
  pools: readonly PoolRow[];
  expanded: ExpandedState;
  onExpandedChange: (e: ExpandedState) => void;
}) {
  const router = useRouter();
  const rows = useMemo(() => nestPools(pools), [pools]);
  return (
    <DataTable
      caption="Resource pools, as a tree"
      testId="pool-tree"
      data={rows}
      columns={columns}
      getRowId={(p) => p.path}
      getSubRows={(p) => (p.subRows.length ? p.subRows : undefined)}
      expanded={expanded}
      onExpandedChange={onExpandedChange}
      rowProps={(p) => ({ "data-pool": p.path })}
      onOpen={(p) => router.push(poolHref(p.path))}
      estimatedRowHeight={64}
    />
  );
}
