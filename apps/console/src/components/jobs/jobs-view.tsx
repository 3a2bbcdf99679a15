"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { EmptyState, RowsSkeleton } from "@/components/ui/card";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { LoadError } from "@/components/ui/load-error";
import { PageHeader } from "@/components/ui/page-header";
import type { JobsPage } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam, useUrlState } from "@/lib/url-state";
import { BulkActions } from "./bulk-actions";
import { JobsFilters } from "./jobs-filters";
import {
  isFiltered,
  type JobsQuery,
  listInput,
  NO_FILTERS,
  readJobsQuery,
  writeJobsQuery,
} from "./jobs-query";
import { GROUP_KEYS, type GroupKey, JobsTable } from "./jobs-table";
import { STARTER_JOB_YAML } from "./new/starter-template";

/** `/jobs`: every job, filtered, sorted and paged on the server, live; bulk stop and restart. */
export function JobsView({ initial, initialQuery }: { initial: JobsPage; initialQuery: string }) {
  const trpc = useTRPC();
  const [query, setQuery] = useUrlState(readJobsQuery, writeJobsQuery);
  const [group, setGroup] = useSearchParam<GroupKey>("group", "none", GROUP_KEYS);
  const fresh = writeJobsQuery(query) === initialQuery;
  const list = useQuery(
    trpc.jobs.list.queryOptions(listInput(query), {
      placeholderData: keepPreviousData,
      ...(fresh ? { initialData: initial } : {}),
    }),
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const items = list.data?.items ?? [];
  const filtered = isFiltered(query);

  // Any change of filter or sort starts again at the first page, with nothing selected.
  const go = (next: Partial<JobsQuery>) => {
    setSelected(new Set());
    setQuery({ cursor: null, ...next });
  };
  const select = (ids: string[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });

  return (
    <div className="space-y-4">
      <PageHeader
        title="Jobs"
        live={list}
        actions={
          <Link
            href={query.pool ? `/jobs/new?pool=${encodeURIComponent(query.pool)}` : "/jobs/new"}
            className="inline-flex h-8 items-center gap-1.5 rounded-md bg-accent px-3 font-medium text-accent-fg hover:opacity-90"
          >
            <Plus className="size-4" aria-hidden />
            New job
          </Link>
        }
      />

      <JobsFilters query={query} group={group} onChange={go} onGroup={setGroup} />

      <BulkActions
        jobs={items.filter((j) => selected.has(j.id))}
        onClear={() => setSelected(new Set())}
      />

      {list.isError ? (
        <LoadError
          what="The jobs"
          error={list.error}
          onRetry={() => list.refetch()}
          onClearFilters={filtered ? () => go(NO_FILTERS) : undefined}
        />
      ) : list.isPending ? (
        <RowsSkeleton tall />
      ) : items.length === 0 ? (
        filtered ? (
          <EmptyState title="No job matches these filters">
            Clear a filter, or look for the job by another part of its name.
          </EmptyState>
        ) : (
          <NoJobsYet />
        )
      ) : (
        <JobsTable
          rows={items}
          query={query}
          group={group}
          selected={selected}
          onSelect={select}
          onSort={(sort, order) => go({ sort, order })}
        />
      )}

      <KeysetPager
        count={items.length}
        noun="job"
        onFirstPage={!query.cursor}
        nextCursor={list.data?.nextCursor}
        onNext={(cursor) => go({ cursor })}
      />
    </div>
  );
}

/** What to do when nothing has been submitted yet, with a job to start from. */
function NoJobsYet() {
  return (
    <div
      className="rounded-lg border border-dashed border-border bg-surface p-5"
      data-testid="jobs-empty"
    >
      <p className="font-medium">No jobs yet</p>
      <p className="mt-1 text-muted">
        Submit a job in Peloton&apos;s job YAML to a leaf pool: with{" "}
        <Link href="/jobs/new" className="text-accent underline underline-offset-2">
          New job
        </Link>
        , or from a terminal with{" "}
        <code className="rounded bg-surface-2 px-1 font-mono text-xs">
          peloton job create /DefaultResPool job.yaml
        </code>
        . Its instances appear here as they go from PENDING to RUNNING.
      </p>
      <pre className="mt-3 max-h-72 overflow-auto rounded-md bg-surface-2 p-3 font-mono text-xs leading-5">
        {STARTER_JOB_YAML}
      </pre>
    </div>
  );
}
