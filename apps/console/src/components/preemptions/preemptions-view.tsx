"use client";
/**
 * /preemptions: the on-call journey "my task was killed". Filter by the
 * pool, job, kind and time (all in the URL), read each decision in one
 * sentence, open it for the numbers, export what is shown as CSV. Live:
 * new preemptions appear without a reload.
 */
import type { PreemptionFiltersInput } from "@peloton/api/schemas";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { Card, EmptyState, RowsSkeleton, Skeleton } from "@/components/ui/card";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { LoadError } from "@/components/ui/load-error";
import { PageHeader } from "@/components/ui/page-header";
import type { PreemptionsPage } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { useUrlState } from "@/lib/url-state";
import { CHART_POOLS, CountsChart } from "./counts-chart";
import { PreemptionDetail } from "./preemption-detail";
import { PreemptionFilterBar } from "./preemption-filters";
import {
  csvHref,
  filtersOf,
  isFiltered,
  listInput,
  NO_FILTERS,
  type PreemptionsQuery,
  readPreemptionsQuery,
  writePreemptionsQuery,
} from "./preemptions-query";
import { PreemptionsTable } from "./preemptions-table";

function WhatIsPreemption() {
  return (
    <EmptyState title="No preemption has been recorded">
      Preemption takes resources back so that every pool gets its fair share.{" "}
      <b>Inter-pool fairness</b>: when a pool holds more than its entitlement for several periods in
      a row while another pool waits below its own, its lowest-priority, most recently started
      preemptible tasks are preempted. <b>Intra-pool priority</b>: when a higher-priority task waits
      in a pool at its entitlement, a lower-priority task of the same pool makes room. A task that
      was not running yet goes back to PENDING; a running one is killed and comes back as its
      job&apos;s type and restart policy say. Each one is kept here for good, with the numbers that
      decided it.
    </EmptyState>
  );
}

export function PreemptionsView({
  initial,
  initialQuery,
}: {
  initial: PreemptionsPage | null;
  initialQuery: string;
}) {
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState(readPreemptionsQuery, writePreemptionsQuery);
  const filters = filtersOf(query);
  const fresh = writePreemptionsQuery({ ...query, open: null }) === initialQuery;
  const list = useQuery(
    trpc.preemptions.list.queryOptions(listInput(query), {
      placeholderData: keepPreviousData,
      ...(fresh && initial ? { initialData: initial } : {}),
    }),
  );
  const counts = useQuery(
    trpc.preemptions.countsByPool.queryOptions(
      { ...filters, top: CHART_POOLS },
      {
        placeholderData: keepPreviousData,
      },
    ),
  );

  // A new filter starts again at the newest page and closes the details.
  const filter = (next: Partial<PreemptionFiltersInput>) =>
    setQuery({ ...next, cursor: null, open: null });
  const go = (next: Partial<PreemptionsQuery>) => setQuery(next);

  const items = list.data?.items ?? [];
  const filtered = isFiltered(filters);
  const onePool = filters.pool && !filters.subtree ? filters.pool : null;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Preemptions"
        description="Which task was preempted, for whom, by which rule and with which numbers, and whether it came back."
        live={list}
        actions={
          <a
            href={csvHref(filters)}
            download
            className="inline-flex h-8 items-center gap-1.5 rounded-md border border-border bg-surface px-3 font-medium hover:bg-surface-2"
          >
            <Download className="size-4" aria-hidden />
            Export CSV
          </a>
        }
      />

      <PreemptionFilterBar filters={filters} onChange={filter} />

      {list.isError ? (
        <LoadError
          what="The preemptions"
          error={list.error}
          onRetry={() => list.refetch()}
          onClearFilters={filtered ? () => filter(NO_FILTERS) : undefined}
        />
      ) : (
        <>
          <Card
            title={
              onePool
                ? `Preemptions in and out of ${onePool} over time`
                : "Preemptions over time, by the victim's pool"
            }
            testId="preemption-counts"
          >
            {counts.data ? (
              counts.data.pools.length > 0 ? (
                <CountsChart counts={counts.data} pool={onePool} />
              ) : (
                <p className="text-sm text-muted">None in this range.</p>
              )
            ) : (
              <Skeleton className="h-40 w-full" />
            )}
          </Card>

          {list.isPending ? (
            <RowsSkeleton tall />
          ) : items.length === 0 ? (
            filtered ? (
              <EmptyState title="No preemption matches these filters">
                Widen the time range, choose &quot;in or out&quot; for the pool, include the pools
                below it, or clear a filter.
              </EmptyState>
            ) : (
              <WhatIsPreemption />
            )
          ) : (
            <PreemptionsTable rows={items} openId={query.open} onOpen={(p) => go({ open: p.id })} />
          )}

          <KeysetPager
            count={items.length}
            noun="preemption"
            onFirstPage={!query.cursor}
            nextCursor={list.data?.nextCursor}
            onNext={(cursor) => go({ cursor })}
            firstLabel="← Newest"
            nextLabel="Older →"
            order="newest first"
          />
        </>
      )}

      {query.open && (
        <PreemptionDetail
          id={query.open}
          row={items.find((p) => p.id === query.open)}
          onClose={() => go({ open: null })}
          onFilterJob={(job) => filter({ job, instance: undefined })}
        />
      )}
    </div>
  );
}
