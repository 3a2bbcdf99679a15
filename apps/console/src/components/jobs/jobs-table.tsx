"use client";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { ColumnHeader, SortHeader } from "@/components/ui/sort-header";
import { PadRow, useVirtualRows, VirtualTableFrame } from "@/components/ui/virtual-rows";
import type { JobRow } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { poolHref } from "@/lib/pools";
import { InstanceBar } from "./instance-bar";
import { JobWaiting } from "./job-waiting";
import type { JobSortKey, JobsQuery } from "./jobs-query";
import { StateBadge } from "./state-badge";

export const GROUP_KEYS = ["none", "pool", "owner", "state", "type"] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];

const ROW_PX = 52;
const COLS = 10;

type Line = { kind: "group"; key: string; rows: JobRow[] } | { kind: "job"; job: JobRow };

/** The page's rows under a header per group (in order of first appearance), or as they are. */
function linesOf(rows: readonly JobRow[], group: GroupKey): Line[] {
  if (group === "none") return rows.map((job) => ({ kind: "job", job }));
  const groups = new Map<string, JobRow[]>();
  for (const job of rows) {
    const key = group === "pool" ? job.poolPath : String(job[group]);
    groups.set(key, [...(groups.get(key) ?? []), job]);
  }
  return [...groups].flatMap(([key, members]) => [
    { kind: "group" as const, key, rows: members },
    ...members.map((job) => ({ kind: "job" as const, job })),
  ]);
}

function Checkbox({
  checked,
  indeterminate = false,
  label,
  onChange,
}: {
  checked: boolean;
  indeterminate?: boolean;
  label: string;
  onChange: (on: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
      className="size-4 accent-(--accent)"
    />
  );
}

/** The jobs of one page: sortable on the server, selectable for bulk actions, grouped on request. */
export function JobsTable({
  rows,
  query,
  group,
  selected,
  onSelect,
  onSort,
}: {
  rows: JobRow[];
  query: JobsQuery;
  group: GroupKey;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
  onSort: (sort: JobSortKey, order: "asc" | "desc") => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const lines = linesOf(rows, group);
  const {
    rows: shown,
    padTop,
    padBottom,
    virtual,
  } = useVirtualRows(lines, {
    scroller,
    rowPx: ROW_PX,
  });
  const header = { sort: query.sort, order: query.order, onSort };
  const all = rows.map((r) => r.id);
  const picked = all.filter((id) => selected.has(id)).length;
  return (
    <VirtualTableFrame
      scroller={scroller}
      virtual={virtual}
      caption="Jobs"
      testId="jobs-table"
      head={
        <tr className="border-b border-border">
          <th scope="col" className="w-8 py-1.5 pl-3">
            <Checkbox
              label="Select every job on this page"
              checked={picked > 0 && picked === all.length}
              indeterminate={picked > 0 && picked < all.length}
              onChange={(on) => onSelect(all, on)}
            />
          </th>
          <SortHeader sortKey="name" {...header}>
            Job
          </SortHeader>
          <SortHeader sortKey="state" {...header}>
            State
          </SortHeader>
          <ColumnHeader>Type</ColumnHeader>
          <ColumnHeader>Pool</ColumnHeader>
          <ColumnHeader>Owner</ColumnHeader>
          <SortHeader sortKey="priority" {...header} align="right">
            Prio
          </SortHeader>
          <SortHeader sortKey="instanceCount" {...header}>
            Instances
          </SortHeader>
          <SortHeader sortKey="createdAt" {...header}>
            Created
          </SortHeader>
          <SortHeader sortKey="updatedAt" {...header}>
            Updated
          </SortHeader>
        </tr>
      }
    >
      <tbody>
        <PadRow height={padTop} colSpan={COLS} />
        {shown.map(({ row: line }) =>
          line.kind === "group" ? (
            <GroupRow
              key={`g:${line.key}`}
              line={line}
              group={group}
              selected={selected}
              onSelect={onSelect}
            />
          ) : (
            <JobRowView
              key={line.job.id}
              job={line.job}
              checked={selected.has(line.job.id)}
              onSelect={onSelect}
            />
          ),
        )}
        <PadRow height={padBottom} colSpan={COLS} />
      </tbody>
    </VirtualTableFrame>
  );
}

function GroupRow({
  line,
  group,
  selected,
  onSelect,
}: {
  line: Extract<Line, { kind: "group" }>;
  group: GroupKey;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
}) {
  const ids = line.rows.map((r) => r.id);
  const picked = ids.filter((id) => selected.has(id)).length;
  const instances = line.rows.reduce((n, r) => n + r.instanceCount, 0);
  return (
    <tr
      className="border-b border-border bg-surface-2/70"
      data-group={line.key}
      style={{ height: 36 }}
    >
      <td className="py-1 pl-3">
        <Checkbox
          label={`Select the jobs of ${group} ${line.key}`}
          checked={picked === ids.length}
          indeterminate={picked > 0 && picked < ids.length}
          onChange={(on) => onSelect(ids, on)}
        />
      </td>
      <td colSpan={COLS - 1} className="py-1 pr-3 text-xs">
        <span className="uppercase tracking-wide text-muted">{group} </span>
        <span className="font-mono font-medium">{line.key}</span>
        <span className="text-muted">
          {" "}
          · {formatCount(line.rows.length)} job{line.rows.length === 1 ? "" : "s"} ·{" "}
          {formatCount(instances)} instances
        </span>
      </td>
    </tr>
  );
}

function JobRowView({
  job,
  checked,
  onSelect,
}: {
  job: JobRow;
  checked: boolean;
  onSelect: (ids: string[], on: boolean) => void;
}) {
  return (
    <tr
      data-job={job.id}
      data-state={job.state}
      aria-selected={checked}
      className={`border-b border-border align-middle last:border-0 hover:bg-surface-2/60 ${checked ? "bg-accent/5" : ""}`}
      style={{ height: ROW_PX }}
    >
      <td className="py-1.5 pl-3">
        <Checkbox
          label={`Select ${job.name}`}
          checked={checked}
          onChange={(on) => onSelect([job.id], on)}
        />
      </td>
      <td className="max-w-72 py-1.5 pr-3">
        <Link
          href={`/jobs/${job.id}`}
          className="block truncate font-medium hover:underline"
          title={job.description || job.name}
        >
          {job.name}
        </Link>
        <p className="truncate font-mono text-xs text-muted" title={job.id}>
          {job.id.slice(0, 8)}
          {job.labels.length > 0 && (
            <span className="ml-2 font-sans">
              {job.labels
                .slice(0, 2)
                .map((l) => `${l.key}=${l.value}`)
                .join(" ")}
              {job.labels.length > 2 ? ` +${job.labels.length - 2}` : ""}
            </span>
          )}
        </p>
      </td>
      <td className="py-1.5 pr-3">
        <StateBadge state={job.state} goal={job.goalState} />
      </td>
      <td className="py-1.5 pr-3 text-xs">{job.type}</td>
      <td className="py-1.5 pr-3">
        <Link href={poolHref(job.poolPath)} className="font-mono text-xs hover:underline">
          {job.poolPath}
        </Link>
      </td>
      <td
        className="max-w-32 truncate py-1.5 pr-3 text-xs"
        title={job.owningTeam ? `team ${job.owningTeam}` : undefined}
      >
        {job.owner}
      </td>
      <td className="py-1.5 pr-3 text-right tabular-nums">{job.priority}</td>
      <td className="max-w-72 py-1.5 pr-3">
        <InstanceBar stats={job.taskStats} total={job.instanceCount} />
        <JobWaiting job={job} />
      </td>
      <td className="whitespace-nowrap py-1.5 pr-3 text-xs text-muted">
        <RelativeTime at={job.createdAt} />
      </td>
      <td className="whitespace-nowrap py-1.5 pr-3 text-xs text-muted">
        <RelativeTime at={job.updatedAt} />
      </td>
    </tr>
  );
}
