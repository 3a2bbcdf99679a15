"use client";
import { configToForm, SERIES_RANGES, type SeriesRange } from "@peloton/api/schemas";
import * as Tabs from "@radix-ui/react-tabs";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { AccessNote } from "@/components/identity/access-note";
import { useAccess } from "@/components/identity/use-access";
import { factsOf } from "@/components/identity/use-pool-facts";
import { PoolPreemptions } from "@/components/preemptions/pool-preemptions";
import { Card } from "@/components/ui/card";
import { PoolPathText } from "@/components/ui/ids";
import { LiveIndicator } from "@/components/ui/live-indicator";
import { PageTabList } from "@/components/ui/page-tabs";
import { RelativeTime } from "@/components/ui/relative-time";
import { ResourceBarLegend } from "@/components/ui/resource-bar";
import type { PoolDetail, PoolHistoryPage } from "@/lib/api-types";
import { KIND_LABEL, type Kind } from "@/lib/format";
import { ancestorPaths, DISPLAY_KINDS, poolHref } from "@/lib/pools";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam } from "@/lib/url-state";
import { ClusterCapacity } from "./cluster-notice";
import { CreatePoolDialog } from "./create-pool-dialog";
import { DeletePoolButton } from "./delete-pool-button";
import { EntitlementChart } from "./entitlement-chart";
import { KindPanel } from "./kind-panel";
import { PoolForm } from "./pool-form";
import { PoolHistory } from "./pool-history";

const TABS = ["overview", "edit", "history", "preemptions"] as const;
type Tab = (typeof TABS)[number];

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
  text = (o) => o,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
  text?: (o: T) => string;
}) {
  return (
    <label className="flex items-center gap-1.5 text-xs text-muted">
      {label}
      <select
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
        className="h-7 rounded-md border border-border bg-surface px-1.5 text-fg"
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {text(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * `/pools/<path>`: one pool's numbers and why, over time, its changes, its
 * edit form, and the preemptions that took from it, gave to it or moved
 * within it.
 */
export function PoolPage({
  initial,
  initialHistory,
}: {
  initial: PoolDetail;
  initialHistory: PoolHistoryPage;
}) {
  const trpc = useTRPC();
  const path = initial.path;
  const query = useQuery(trpc.pools.get.queryOptions({ path }, { initialData: initial }));
  const pool = query.data;
  const [tab, setTab] = useSearchParam<Tab>("tab", "overview", TABS);
  const [kind, setKind] = useSearchParam<Kind>("kind", "cpu", DISPLAY_KINDS);
  const [range, setRange] = useSearchParam<SeriesRange>("range", "1h", SERIES_RANGES);
  const editAccess = useAccess({ kind: "pool.update", pool: factsOf(pool) });
  const childLimit = {
    cpu: pool.resources.cpu.limit,
    gpu: pool.resources.gpu.limit,
    memory: pool.resources.memory.limit,
    disk: pool.resources.disk.limit,
  };

  return (
    <div className="space-y-4">
      <nav aria-label="Pool path" className="flex flex-wrap items-center gap-1 text-muted">
        <Link href="/pools" className="hover:text-fg hover:underline">
          Pools
        </Link>
        {ancestorPaths(path).map((p) => (
          <span key={p} className="flex items-center gap-1">
            <span aria-hidden>/</span>
            {p === path ? (
              <span className="text-fg" aria-current="page">
                {p.split("/").pop()}
              </span>
            ) : (
              <Link href={poolHref(p)} className="hover:text-fg hover:underline">
                {p.split("/").pop()}
              </Link>
            )}
          </span>
        ))}
      </nav>

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-lg font-semibold">
            <PoolPathText path={pool.path} />
          </h1>
          <p className="text-muted">
            {pool.owningTeam ? `Team ${pool.owningTeam}` : "No owning team"}
            {pool.description && ` · ${pool.description}`} · version {pool.version}, changed{" "}
            <RelativeTime at={pool.updatedAt} /> · {pool.jobs} job{pool.jobs === 1 ? "" : "s"}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <LiveIndicator updatedAt={query.dataUpdatedAt} failing={query.isError} />
          <CreatePoolDialog
            parent={factsOf(pool)}
            parentLimit={childLimit}
            label="New child pool"
          />
          <DeletePoolButton pool={pool} />
        </div>
      </div>

      <AccessNote access={editAccess} />
      <ClusterCapacity cluster={pool.cluster} />

      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <PageTabList label="Pool views" tabs={TABS} />

        <Tabs.Content
          forceMount
          value="overview"
          className="data-[state=inactive]:hidden space-y-4 pt-4"
        >
          <ResourceBarLegend />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            {DISPLAY_KINDS.map((k) => (
              <KindPanel key={k} kind={k} pool={pool} />
            ))}
          </div>
          <Card
            title="Over time"
            action={
              <div className="flex gap-3">
                <Select
                  label="Kind"
                  value={kind}
                  options={DISPLAY_KINDS}
                  onChange={setKind}
                  text={(k) => KIND_LABEL[k]}
                />
                <Select label="Range" value={range} options={SERIES_RANGES} onChange={setRange} />
              </div>
            }
          >
            <EntitlementChart path={path} kind={kind} range={range} />
          </Card>
          {pool.childPools.length > 0 && (
            <Card title={`Child pools (${pool.childPools.length})`}>
              <ul className="flex flex-wrap gap-2">
                {pool.childPools.map((c) => (
                  <li key={c.path}>
                    <Link
                      href={poolHref(c.path)}
                      className="rounded-md border border-border px-2 py-1 font-mono text-xs hover:border-accent"
                    >
                      {c.path}
                    </Link>
                  </li>
                ))}
              </ul>
            </Card>
          )}
        </Tabs.Content>

        <Tabs.Content forceMount value="edit" className="data-[state=inactive]:hidden pt-4">
          <Card title={`Edit ${pool.path}`}>
            <PoolForm
              key={pool.id}
              target={{ action: "update", pool }}
              initial={configToForm(pool.config)}
              onCancel={() => setTab("overview")}
              onSaved={() => setTab("overview")}
            />
          </Card>
        </Tabs.Content>

        <Tabs.Content forceMount value="history" className="data-[state=inactive]:hidden pt-4">
          <PoolHistory path={path} initial={initialHistory} />
        </Tabs.Content>

        {/* Mounted when shown: its counts and list are read only for those who look. */}
        <Tabs.Content value="preemptions" className="pt-4">
          <Card title="Preemptions">
            <PoolPreemptions path={path} />
          </Card>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
