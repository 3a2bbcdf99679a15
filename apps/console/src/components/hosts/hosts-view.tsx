"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { AccessNote } from "@/components/identity/access-note";
import { refusal, useAccessDecider } from "@/components/identity/use-access";
import { Button } from "@/components/ui/button";
import { EmptyState, RowsSkeleton } from "@/components/ui/card";
import { FilterInput } from "@/components/ui/filter-input";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { LoadError } from "@/components/ui/load-error";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { ColumnHeader, SortHeader } from "@/components/ui/sort-header";
import { ToggleChips } from "@/components/ui/toggle-chips";
import { UsageBar } from "@/components/ui/usage-bar";
import { PadRow, useVirtualRows, VirtualTableFrame } from "@/components/ui/virtual-rows";
import type { HostRow, HostsPage } from "@/lib/api-types";
import { formatCount, formatMb, formatResource, formatResourcePair } from "@/lib/format";
import { hostTone, TONE_DOT } from "@/lib/states";
import { useTRPC } from "@/lib/trpc";
import { useUrlState } from "@/lib/url-state";
import {
  HOST_STATES,
  type HostsQuery,
  isFiltered,
  listInput,
  NO_FILTERS,
  readHostsQuery,
  type SortKey,
  writeHostsQuery,
} from "./hosts-query";
import {
  MaintenanceDialog,
  type MaintenanceKind,
  type MaintenanceTarget,
} from "./maintenance-dialog";

/** Past this many rows the table renders only what is on screen. */
const VIRTUAL_FROM = 60;
const ROW_PX = 52;

type Action = { kind: MaintenanceKind; host: HostRow };
/** Why the signed-in person may not start or complete maintenance (undefined: they may). */
type Refused = Record<MaintenanceKind, string | undefined>;

export function HostsView({ initial, initialQuery }: { initial: HostsPage; initialQuery: string }) {
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState(readHostsQuery, writeHostsQuery);
  const input = listInput(query);
  const fresh = writeHostsQuery(query) === initialQuery;
  const list = useQuery(
    trpc.hosts.list.queryOptions(input, {
      placeholderData: keepPreviousData,
      ...(fresh ? { initialData: initial } : {}),
    }),
  );
  const zones = useQuery(trpc.hosts.zones.queryOptions());
  const [action, setAction] = useState<Action | null>(null);
  const decide = useAccessDecider();
  const startAccess = decide({ kind: "host.act", verb: "startMaintenance", hostname: "" });
  const refused: Refused = {
    start: refusal(startAccess),
    complete: refusal(decide({ kind: "host.act", verb: "completeMaintenance", hostname: "" })),
  };

  // Any change of filter or sort starts again at the first page.
  const go = (next: Partial<HostsQuery>) => setQuery({ cursor: null, ...next });

  const target: MaintenanceTarget | null = action && {
    kind: action.kind,
    hostname: action.host.hostname,
    state: action.host.state,
    tasks: action.host.tasks,
  };

  const items = list.data?.items ?? [];
  const filtered = isFiltered(query);
  return (
    <div className="space-y-4">
      <PageHeader title="Hosts" live={list} />
      <AccessNote access={startAccess} />

      <fieldset className="flex flex-wrap items-center gap-3" aria-label="Filters">
        <FilterInput
          aria-label="Filter by hostname"
          placeholder="Hostname contains…"
          value={query.q}
          onCommit={(q) => go({ q })}
          className="h-8 w-56 rounded-md border border-border bg-surface px-2"
        />
        <ToggleChips
          legend="State"
          options={HOST_STATES}
          value={query.states}
          onChange={(states) => go({ states })}
          tone={hostTone}
        />
        <label className="flex items-center gap-2 text-muted">
          Zone
          <select
            value={query.zone}
            onChange={(e) => go({ zone: e.target.value })}
            className="h-8 rounded-md border border-border bg-surface px-2 text-fg"
          >
            <option value="">all</option>
            {(zones.data ?? []).map((z) => (
              <option key={z.value} value={z.value}>
                {z.value} ({z.hosts})
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            onClick={() => go(NO_FILTERS)}
            className="text-xs text-accent hover:underline"
          >
            Clear filters
          </button>
        )}
      </fieldset>

      {list.isError ? (
        <LoadError
          what="The hosts"
          error={list.error}
          onRetry={() => list.refetch()}
          onClearFilters={filtered ? () => go(NO_FILTERS) : undefined}
        />
      ) : list.isPending ? (
        <RowsSkeleton />
      ) : items.length === 0 ? (
        filtered ? (
          <EmptyState title="No host matches these filters">
            Clear a filter, or look for the host by another part of its name.
          </EmptyState>
        ) : (
          <EmptyState title="No hosts have registered">
            Hosts appear here when agents register with the Mesos master the scheduler is subscribed
            to (MESOS_MASTER_URL, or the built-in mesos-sim of `npm start`).
          </EmptyState>
        )
      ) : (
        <HostsTable
          rows={items}
          query={query}
          onSort={(sort, order) => go({ sort, order })}
          onAction={setAction}
          refused={refused}
        />
      )}

      <KeysetPager
        count={items.length}
        noun="host"
        onFirstPage={!query.cursor}
        nextCursor={list.data?.nextCursor}
        onNext={(cursor) => go({ cursor })}
      />

      <MaintenanceDialog target={target} onClose={() => setAction(null)} />
    </div>
  );
}

function HostsTable({
  rows,
  query,
  onSort,
  onAction,
  refused,
}: {
  rows: HostRow[];
  query: HostsQuery;
  onSort: (sort: SortKey, order: "asc" | "desc") => void;
  onAction: (a: Action) => void;
  refused: Refused;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const {
    rows: shown,
    padTop,
    padBottom,
    virtual,
  } = useVirtualRows(rows, {
    scroller,
    rowPx: ROW_PX,
    virtualFrom: VIRTUAL_FROM,
  });
  const header = { sort: query.sort, order: query.order, onSort };
  return (
    <VirtualTableFrame
      scroller={scroller}
      virtual={virtual}
      caption="Hosts"
      testId="hosts-table"
      head={
        <tr className="border-b border-border">
          <SortHeader sortKey="hostname" {...header}>
            <span className="pl-3">Host</span>
          </SortHeader>
          <SortHeader sortKey="state" {...header}>
            State
          </SortHeader>
          <ColumnHeader>Attributes</ColumnHeader>
          <SortHeader sortKey="cpu" {...header}>
            CPU
          </SortHeader>
          <SortHeader sortKey="memMb" {...header}>
            Memory
          </SortHeader>
          <SortHeader sortKey="diskMb" {...header}>
            Disk
          </SortHeader>
          <SortHeader sortKey="gpu" {...header}>
            GPU
          </SortHeader>
          <SortHeader sortKey="tasks" {...header} align="right">
            Tasks
          </SortHeader>
          <th scope="col" className="py-1.5 pr-3 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      }
    >
      <tbody>
        <PadRow height={padTop} colSpan={9} />
        {shown.map(({ row: h }) => (
          <HostRowView key={h.hostname} h={h} onAction={onAction} refused={refused} />
        ))}
        <PadRow height={padBottom} colSpan={9} />
      </tbody>
    </VirtualTableFrame>
  );
}

function HostRowView({
  h,
  onAction,
  refused,
}: {
  h: HostRow;
  onAction: (a: Action) => void;
  refused: Refused;
}) {
  const since = new Date(h.stateSince);
  const attributes = Object.entries(h.attributes);
  return (
    <tr
      data-host={h.hostname}
      data-state={h.state}
      className={`border-b border-border align-top last:border-0 hover:bg-surface-2/60 ${h.state === "DOWN" || h.state === "LOST" ? "text-muted" : ""}`}
      style={{ height: ROW_PX }}
    >
      <td className="py-2 pl-3 pr-3">
        <Link
          href={`/hosts/${encodeURIComponent(h.hostname)}`}
          className="font-mono font-medium text-accent hover:underline"
        >
          {h.hostname}
        </Link>
        <p className="max-w-52 truncate font-mono text-xs text-muted" title={`agent ${h.agentId}`}>
          {h.agentId}
        </p>
      </td>
      <td className="py-2 pr-3">
        <span className="flex items-center gap-1.5 whitespace-nowrap" data-testid="host-state">
          <span aria-hidden className={`size-2 rounded-full ${TONE_DOT[hostTone(h.state)]}`} />
          {h.state}
        </span>
        <p className="text-xs text-muted">
          <RelativeTime at={since} note={h.stateReason} />
        </p>
      </td>
      <td className="max-w-64 py-2 pr-3">
        <ul className="flex flex-wrap gap-1">
          {attributes.map(([k, v]) => (
            <li
              key={k}
              className="rounded border border-border bg-surface-2 px-1.5 font-mono text-xs"
            >
              <span className="text-muted">{k}=</span>
              {v}
            </li>
          ))}
        </ul>
      </td>
      <td className="py-2 pr-3">
        <UsageBar
          used={h.allocated.cpu}
          total={h.cpu}
          label={`CPU of ${h.hostname}`}
          format={(n) => formatResource("cpu", n)}
        />
      </td>
      <td className="py-2 pr-3">
        <UsageBar
          used={h.allocated.memMb}
          total={h.memMb}
          label={`Memory of ${h.hostname}`}
          format={formatMb}
          formatPair={(used, total) => formatResourcePair("memory", used, total)}
        />
      </td>
      <td className="py-2 pr-3">
        <UsageBar
          used={h.allocated.diskMb}
          total={h.diskMb}
          label={`Disk of ${h.hostname}`}
          format={formatMb}
          formatPair={(used, total) => formatResourcePair("disk", used, total)}
        />
      </td>
      <td className="py-2 pr-3">
        {h.gpu > 0 ? (
          <UsageBar
            used={h.allocated.gpu}
            total={h.gpu}
            label={`GPUs of ${h.hostname}`}
            format={(n) => formatResource("gpu", n)}
          />
        ) : (
          <span className="text-muted">—</span>
        )}
      </td>
      <td className="py-2 pr-3 text-right tabular-nums" data-testid="host-tasks">
        {formatCount(h.tasks)}
      </td>
      <td className="whitespace-nowrap py-2 pr-3 text-right">
        <MaintenanceCell h={h} onAction={onAction} refused={refused} />
      </td>
    </tr>
  );
}

/** The row's maintenance action, or what the host is waiting for. */
function MaintenanceCell({
  h,
  onAction,
  refused,
}: {
  h: HostRow;
  onAction: (a: Action) => void;
  refused: Refused;
}) {
  if (h.state === "UP" && h.goalState === "UP")
    return (
      <Button
        size="sm"
        onClick={() => onAction({ kind: "start", host: h })}
        disabledReason={refused.start}
      >
        Start maintenance
      </Button>
    );
  if (h.state === "LOST")
    return (
      <span
        className="text-xs text-muted"
        title="A LOST host comes back UP when its agent registers with the cluster again"
      >
        waiting for its agent
      </span>
    );
  if (h.goalState === "UP") return <span className="text-xs text-muted">coming back UP</span>;
  return (
    <Button
      size="sm"
      onClick={() => onAction({ kind: "complete", host: h })}
      disabledReason={refused.complete}
    >
      Complete maintenance
    </Button>
  );
}
