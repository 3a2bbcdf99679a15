"use client";
/**
 * /audit: every accepted mutation — who, when, what, before and after —
 * filtered by actor, action, target and time (all in the URL). A row opens
 * to the fields that changed. Live: new entries appear without a reload.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { EmptyState, RowsSkeleton } from "@/components/ui/card";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { LoadError } from "@/components/ui/load-error";
import { PageHeader } from "@/components/ui/page-header";
import type { AuditPage } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { useUrlState } from "@/lib/url-state";
import { AuditFilters } from "./audit-filters";
import {
  type AuditQuery,
  isFiltered,
  listInput,
  NO_FILTERS,
  readAuditQuery,
  writeAuditQuery,
} from "./audit-query";
import { AuditTable } from "./audit-table";

export function AuditView({
  initial,
  initialQuery,
}: {
  initial: AuditPage | null;
  initialQuery: string;
}) {
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState(readAuditQuery, writeAuditQuery);
  const fresh = writeAuditQuery({ ...query, open: null }) === initialQuery;
  const list = useQuery(
    trpc.audit.list.queryOptions(listInput(query), {
      placeholderData: keepPreviousData,
      ...(fresh && initial ? { initialData: initial } : {}),
    }),
  );
  const facets = useQuery(trpc.audit.facets.queryOptions());
  // A new filter starts again at the newest entries.
  const filter = (next: Partial<AuditQuery>) => setQuery({ ...next, cursor: null, open: null });
  const items = list.data?.items ?? [];

  return (
    <div className="space-y-4">
      <PageHeader
        title="Audit log"
        description="Every change made through the console, the CLI or the API: who, when, what, before and after."
        live={list}
      />

      <AuditFilters query={query} facets={facets.data} onChange={filter} />

      {list.isError ? (
        <LoadError
          what="The audit log"
          error={list.error}
          onRetry={() => list.refetch()}
          onClearFilters={isFiltered(query) ? () => filter(NO_FILTERS) : undefined}
        />
      ) : list.isPending ? (
        <RowsSkeleton />
      ) : items.length === 0 ? (
        isFiltered(query) ? (
          <EmptyState title="Nothing matches these filters">
            Widen the time range or clear a filter.
          </EmptyState>
        ) : (
          <EmptyState title="No change has been made yet">
            Creating or editing a pool, submitting or stopping a job, draining a host: each change
            is recorded here with who made it and what it changed.
          </EmptyState>
        )
      ) : (
        <AuditTable rows={items} openId={query.open} onToggle={(open) => setQuery({ open })} />
      )}

      <KeysetPager
        count={items.length}
        noun="change"
        onFirstPage={!query.cursor}
        nextCursor={list.data?.nextCursor}
        onNext={(cursor) => setQuery({ cursor, open: null })}
        firstLabel="← Newest"
        nextLabel="Older →"
        order="newest first"
      />
    </div>
  );
}
