"use client";
import Link from "next/link";
import { useRef } from "react";
import { MiddleCutId } from "@/components/ui/ids";
import { RelativeTime } from "@/components/ui/relative-time";
import { ColumnHeader, SortHeader } from "@/components/ui/sort-header";
import { PadRow, useVirtualRows, VirtualTableFrame } from "@/components/ui/virtual-rows";
import type { VolumeRow } from "@/lib/api-types";
import { formatMb } from "@/lib/format";
import { VolumeStateBadge } from "./volume-state";
import type { SortKey, VolumesQuery } from "./volumes-query";

/** Past this many rows the table renders only what is on screen. */
const VIRTUAL_FROM = 60;
const ROW_PX = 44;
const COLUMNS = 8;

export function VolumesTable({
  rows,
  query,
  onSort,
}: {
  rows: readonly VolumeRow[];
  query: VolumesQuery;
  onSort: (sort: SortKey, order: "asc" | "desc") => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const {
    rows: shown,
    padTop,
    padBottom,
    virtual,
  } = useVirtualRows(rows, { scroller, rowPx: ROW_PX, virtualFrom: VIRTUAL_FROM });
  const header = { sort: query.sort, order: query.order, onSort };
  return (
    <VirtualTableFrame
      scroller={scroller}
      virtual={virtual}
      caption="Volumes"
      testId="volumes-table"
      head={
        <tr className="border-b border-border">
          <ColumnHeader className="pl-3">Volume</ColumnHeader>
          <SortHeader sortKey="job" {...header}>
            Job
          </SortHeader>
          <ColumnHeader>Instance</ColumnHeader>
          <SortHeader sortKey="host" {...header}>
            Host
          </SortHeader>
          <SortHeader sortKey="size" {...header} align="right">
            Size
          </SortHeader>
          <ColumnHeader className="pl-3">Container path</ColumnHeader>
          <SortHeader sortKey="state" {...header}>
            State
          </SortHeader>
          <SortHeader sortKey="createdAt" {...header}>
            First pinned
          </SortHeader>
        </tr>
      }
    >
      <tbody>
        <PadRow height={padTop} colSpan={COLUMNS} />
        {shown.map(({ row: v }) => (
          <VolumeRowView key={v.id} v={v} />
        ))}
        <PadRow height={padBottom} colSpan={COLUMNS} />
      </tbody>
    </VirtualTableFrame>
  );
}

function VolumeRowView({ v }: { v: VolumeRow }) {
  const task = `/jobs/${v.jobId}/tasks/${v.instanceId}`;
  return (
    <tr
      data-volume={v.id}
      data-state={v.state}
      data-host={v.hostname}
      className={`border-b border-border last:border-0 hover:bg-surface-2/60 ${v.state === "DELETED" ? "text-muted" : ""}`}
      style={{ height: ROW_PX }}
    >
      <td className="max-w-56 py-2 pl-3 pr-3">
        <MiddleCutId id={v.id} className="text-xs" />
      </td>
      <td className="max-w-56 py-2 pr-3">
        <Link
          href={`/jobs/${v.jobId}`}
          className="block truncate hover:underline"
          title={v.jobName}
        >
          {v.jobName}
        </Link>
        {v.jobState === "DELETED" && <span className="text-xs text-muted">job deleted</span>}
      </td>
      <td className="py-2 pr-3">
        <Link
          href={task}
          className="whitespace-nowrap text-accent hover:underline"
          title="Open the task that owns this volume"
          data-testid="volume-task"
        >
          instance {v.instanceId}
          <span className="sr-only"> of {v.jobName}</span>
        </Link>
      </td>
      <td className="py-2 pr-3">
        <Link
          href={`/hosts/${encodeURIComponent(v.hostname)}`}
          className="font-mono hover:underline"
        >
          {v.hostname}
        </Link>
      </td>
      <td className="whitespace-nowrap py-2 pr-3 text-right tabular-nums">{formatMb(v.sizeMb)}</td>
      <td className="max-w-56 py-2 pl-3 pr-3">
        <span className="block truncate font-mono text-xs" title={v.containerPath}>
          {v.containerPath}
        </span>
      </td>
      <td className="py-2 pr-3">
        <VolumeStateBadge state={v.state} />
      </td>
      <td className="whitespace-nowrap py-2 pr-3 text-muted">
        <RelativeTime at={v.createdAt} />
      </td>
    </tr>
  );
}
