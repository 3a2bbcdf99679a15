"use client";
import { STARTING_TASK_STATES, TASK_SORT_NAMES, type TaskState } from "@peloton/api/schemas";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useRef } from "react";
import { EmptyState, Skeleton } from "@/components/ui/card";
import { LoadError } from "@/components/ui/load-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { ColumnHeader, SortHeader } from "@/components/ui/sort-header";
import { ToggleChips } from "@/components/ui/toggle-chips";
import { PadRow, useVirtualRows, VirtualTableFrame } from "@/components/ui/virtual-rows";
import type { JobDetail, TaskRow, TasksPage } from "@/lib/api-types";
import { formatCount, formatDuration, formatMb, formatResource } from "@/lib/format";
import { isCrashLooping, TASK_ORDER, taskTone } from "@/lib/states";
import { useTRPC } from "@/lib/trpc";
import { useUrlState } from "@/lib/url-state";
import { useNow } from "@/lib/use-now";
import { HealthBadge } from "../health-badge";
import { INSTANCES_PAGE } from "../jobs-query";
import { StateBadge } from "../state-badge";

type SortKey = (typeof TASK_SORT_NAMES)[number];

const ROW_PX = 48;
const COLS = 11;

interface InstancesQuery {
  states: TaskState[];
  sort: SortKey;
  order: "asc" | "desc";
}

const readQuery = (p: { get(name: string): string | null }): InstancesQuery => ({
  states: (p.get("state") ?? "")
    .split(",")
    .filter((s): s is TaskState => (TASK_ORDER as readonly string[]).includes(s)),
  sort: (TASK_SORT_NAMES as readonly string[]).includes(p.get("sort") ?? "")
    ? (p.get("sort") as SortKey)
    : "instance",
  order: p.get("order") === "desc" ? "desc" : "asc",
});

/** Only this table's keys change; the page's others (tab, …) stay. */
function writeQuery(q: InstancesQuery): string {
  const p = new URLSearchParams(window.location.search);
  const set = (k: string, v: string, fallback: string) =>
    v === fallback ? p.delete(k) : p.set(k, v);
  set("state", q.states.join(","), "");
  set("sort", q.sort, "instance");
  set("order", q.order, "asc");
  return p.toString();
}

/**
 * The job's instances with Peloton's task-list columns, loaded a page at a
 * time as the reader scrolls (rows on screen only), filtered by state and
 * sorted on the server, updated live.
 */
export function InstancesTable({ job, initial }: { job: JobDetail; initial: TasksPage }) {
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState(readQuery, writeQuery);
  const plain = query.states.length === 0 && query.sort === "instance" && query.order === "asc";
  const tasks = useInfiniteQuery(
    trpc.tasks.list.infiniteQueryOptions(
      {
        jobId: job.id,
        states: query.states,
        sort: query.sort,
        order: query.order,
        limit: INSTANCES_PAGE,
      },
      {
        getNextPageParam: (last) => last.nextCursor,
        placeholderData: keepPreviousData,
        ...(plain ? { initialData: { pages: [initial], pageParams: [null] } } : {}),
      },
    ),
  );
  const rows = tasks.data?.pages.flatMap((p) => p.items) ?? [];
  const scroller = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = tasks;
  const onNearEnd = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const {
    rows: shown,
    padTop,
    padBottom,
    virtual,
  } = useVirtualRows(rows, {
    scroller,
    rowPx: ROW_PX,
    onNearEnd,
  });
  const now = useNow(5000);
  const present = TASK_ORDER.filter((s) => (job.taskStats[s] ?? 0) > 0 || query.states.includes(s));
  const header = {
    sort: query.sort,
    order: query.order,
    onSort: (sort: SortKey, order: "asc" | "desc") => setQuery({ sort, order }),
  };

  return (
    <div className="space-y-3">
      <ToggleChips
        legend="Filter instances by state"
        options={present}
        value={query.states}
        onChange={(states) => setQuery({ states })}
        tone={taskTone}
        count={(s) => job.taskStats[s] ?? 0}
        trailing={
          query.states.length > 0 && (
            <button
              type="button"
              className="ml-2 text-xs text-accent hover:underline"
              onClick={() => setQuery({ states: [] })}
            >
              All states
            </button>
          )
        }
      />

      {tasks.isError ? (
        <LoadError what="The instances" error={tasks.error} onRetry={() => tasks.refetch()} />
      ) : tasks.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : rows.length === 0 ? (
        <EmptyState
          title={
            query.states.length ? "No instance is in these states" : "This job has no instances"
          }
        >
          {query.states.length
            ? "Pick another state, or all states."
            : "Scale the job up to add instances."}
        </EmptyState>
      ) : (
        <VirtualTableFrame
          scroller={scroller}
          virtual={virtual}
          caption={<>Instances of {job.name}</>}
          testId="instances-table"
          head={
            <tr className="border-b border-border">
              <SortHeader sortKey="instance" {...header}>
                <span className="pl-3">Instance</span>
              </SortHeader>
              <SortHeader sortKey="state" {...header}>
                State
              </SortHeader>
              <ColumnHeader>Healthy</ColumnHeader>
              <ColumnHeader>Version</ColumnHeader>
              <SortHeader sortKey="host" {...header}>
                Host
              </SortHeader>
              <SortHeader sortKey="startedAt" {...header}>
                Started
              </SortHeader>
              <ColumnHeader>Run time</ColumnHeader>
              <ColumnHeader>Reason · message</ColumnHeader>
              <ColumnHeader align="right">Run</ColumnHeader>
              <ColumnHeader>Resources</ColumnHeader>
              <th scope="col" className="py-1.5 pr-3">
                <span className="sr-only">Logs</span>
              </th>
            </tr>
          }
        >
          <tbody>
            <PadRow height={padTop} colSpan={COLS} />
            {shown.map(({ row }) => (
              <InstanceRow
                key={row.instanceId}
                jobId={job.id}
                jobName={job.name}
                t={row}
                now={now}
              />
            ))}
            <PadRow height={padBottom} colSpan={COLS} />
          </tbody>
        </VirtualTableFrame>
      )}
      <p className="text-xs text-muted" aria-live="polite">
        {formatCount(rows.length)} of{" "}
        {formatCount(query.states.length ? rows.length : job.instanceCount)} instances loaded
        {tasks.isFetchingNextPage
          ? " · loading more…"
          : tasks.hasNextPage
            ? " · scroll for more"
            : ""}
      </p>
    </div>
  );
}

/** States whose reason is routine: shown quietly, so waiting and failed rows stand out. */
const HEALTHY = new Set<TaskState>(["RUNNING", "SUCCEEDED", ...STARTING_TASK_STATES]);

/**
 * Which configuration the instance's run has, and the one it is headed for
 * when an update has not reached it yet ("v1 → v2").
 */
function ConfigVersion({ current, desired }: { current: number; desired: number }) {
  const moving = desired !== current;
  return (
    <span
      className="whitespace-nowrap text-xs tabular-nums"
      data-testid="instance-version"
      data-version={current}
      data-desired={desired}
      title={
        moving
          ? `runs configuration version ${current}; version ${desired} is on its way`
          : `runs configuration version ${current}`
      }
    >
      v{current}
      {moving && <span className="text-info"> → v{desired}</span>}
    </span>
  );
}

function InstanceRow({
  jobId,
  jobName,
  t,
  now,
}: {
  jobId: string;
  jobName: string;
  t: TaskRow;
  now: number | null;
}) {
  const href = `/jobs/${jobId}/tasks/${t.instanceId}`;
  const runTime =
    t.startedAt && now !== null
      ? formatDuration((t.finishedAt?.getTime() ?? now) - t.startedAt.getTime())
      : "";
  return (
    <tr
      data-instance={t.instanceId}
      data-state={t.state}
      className="border-b border-border align-middle last:border-0 hover:bg-surface-2/60"
      style={{ height: ROW_PX }}
    >
      <td className="py-1 pl-3 pr-3">
        <Link href={href} className="font-mono font-medium hover:underline">
          {t.instanceId}
        </Link>
        {t.name !== jobName && <p className="max-w-40 truncate text-xs text-muted">{t.name}</p>}
      </td>
      <td className="py-1 pr-3">
        <StateBadge
          state={t.state}
          goal={t.goalState}
          failing={isCrashLooping(t)}
          testId="instance-state"
        />
      </td>
      <td className="py-1 pr-3">
        <HealthBadge health={t.health} testId="instance-health" />
      </td>
      <td className="py-1 pr-3">
        <ConfigVersion current={t.configVersion} desired={t.desiredConfigVersion} />
      </td>
      <td className="py-1 pr-3">
        {t.hostname ? (
          <Link
            href={`/hosts/${encodeURIComponent(t.hostname)}`}
            className="font-mono text-xs hover:underline"
          >
            {t.hostname}
          </Link>
        ) : (
          <span className="text-muted">—</span>
        )}
      </td>
      <td className="whitespace-nowrap py-1 pr-3 text-xs text-muted">
        {t.startedAt ? <RelativeTime at={t.startedAt} /> : "—"}
      </td>
      <td className="whitespace-nowrap py-1 pr-3 text-xs tabular-nums">
        {runTime || <span className="text-muted">—</span>}
      </td>
      <td className="max-w-md py-1 pr-3 text-xs">
        {t.reason || t.message ? (
          <p
            className={`line-clamp-2 ${HEALTHY.has(t.state) ? "text-muted" : ""}`}
            title={[t.reason, t.message].filter(Boolean).join(": ")}
          >
            {t.reason && !t.message?.includes(t.reason) && (
              <span className="font-mono text-muted">{t.reason} </span>
            )}
            {t.message}
          </p>
        ) : (
          <span className="text-muted">—</span>
        )}
      </td>
      <td
        className="py-1 pr-3 text-right text-xs tabular-nums"
        title={t.failureCount ? `${t.failureCount} failures` : undefined}
      >
        {t.runId}
        {t.failureCount > 0 && <span className="block text-bad">{t.failureCount} failed</span>}
      </td>
      <td className="whitespace-nowrap py-1 pr-3 text-xs text-muted">
        {formatResource("cpu", t.cpu)} · {formatMb(t.memMb)}
      </td>
      <td className="py-1 pr-3 text-right">
        <Link href={`${href}#logs`} className="text-xs text-accent hover:underline">
          Logs
        </Link>
      </td>
    </tr>
  );
}
