"use client";
/**
 * /volumes: every stateful instance's persistent volume — the host it is
 * pinned to (each run of the instance goes back there), its size, where it
 * is mounted, and whether its first launch has created it — filtered by
 * state, host and job (all in the URL). Live: volumes appear and change
 * state without a reload.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState, RowsSkeleton } from "@/components/ui/card";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { LoadError } from "@/components/ui/load-error";
import { PageHeader } from "@/components/ui/page-header";
import type { VolumesPage } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { useUrlState } from "@/lib/url-state";
import { VolumesFilters } from "./volumes-filters";
import {
  isFiltered,
  listInput,
  NO_FILTERS,
  readVolumesQuery,
  type VolumesQuery,
  writeVolumesQuery,
} from "./volumes-query";
import { VolumesTable } from "./volumes-table";

export function VolumesView({
  initial,
  initialQuery,
}: {
  initial: VolumesPage | null;
  initialQuery: string;
}) {
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState(readVolumesQuery, writeVolumesQuery);
  const fresh = writeVolumesQuery(query) === initialQuery;
  const list = useQuery(
    trpc.volumes.list.queryOptions(listInput(query), {
      placeholderData: keepPreviousData,
      ...(fresh && initial ? { initialData: initial } : {}),
    }),
  );
  const facets = useQuery(trpc.volumes.facets.queryOptions());
  // Any change of filter or sort starts again at the first page.
  const go = (next: Partial<VolumesQuery>) => setQuery({ cursor: null, ...next });
  const items = list.data?.items ?? [];

  return (
    <div className="space-y-4">
      <PageHeader
        title="Volumes"
        description="The persistent volume of each instance of a stateful job: pinned to the host where the instance first ran, and mounted there by every later run."
        live={list}
      />

      <VolumesFilters query={query} facets={facets.data} onChange={go} />

      {list.isError ? (
        <LoadError
          what="The volumes"
          error={list.error}
          onRetry={() => list.refetch()}
          onClearFilters={isFiltered(query) ? () => go(NO_FILTERS) : undefined}
        />
      ) : list.isPending ? (
        <RowsSkeleton />
      ) : items.length === 0 ? (
        isFiltered(query) ? (
          <EmptyState title="No volume matches these filters">
            Clear a filter, or pick another host or job.
          </EmptyState>
        ) : (
          <EmptyState title="No persistent volumes yet">
            A volume appears here when an instance of a stateful job is first placed: a service
            whose <code className="font-mono">defaultConfig</code> has a{" "}
            <code className="font-mono">volume</code> (containerPath, sizeMB) gets one per instance.{" "}
            <Link href="/jobs/new" className="text-accent underline underline-offset-2">
              Create such a job
            </Link>
            .
          </EmptyState>
        )
      ) : (
        <VolumesTable rows={items} query={query} onSort={(sort, order) => go({ sort, order })} />
      )}

      <KeysetPager
        count={items.length}
        noun="volume"
        onFirstPage={!query.cursor}
        nextCursor={list.data?.nextCursor}
        onNext={(cursor) => setQuery({ cursor })}
      />
    </div>
  );
}
