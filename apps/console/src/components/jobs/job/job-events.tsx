"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useRef } from "react";
import { TransitionList } from "@/components/tasks/transition-list";
import { Button } from "@/components/ui/button";
import { EmptyState, Skeleton } from "@/components/ui/card";
import { FilterInput } from "@/components/ui/filter-input";
import { LoadError } from "@/components/ui/load-error";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam } from "@/lib/url-state";

const INPUT = "h-8 rounded-md border border-border bg-surface px-2 text-fg";

/**
 * The job's timeline: every instance's transitions, newest first, older
 * ones a page at a time; filtered by instance and by reason (both in the
 * URL, applied as you type).
 */
export function JobEvents({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const ids = useId();
  const [instanceText, setInstance] = useSearchParam<string>("eventInstance", "");
  const [reason, setReason] = useSearchParam<string>("eventReason", "");
  const instance = /^\d{1,9}$/.test(instanceText) ? Number(instanceText) : undefined;
  const badInstance = instanceText !== "" && instance === undefined;
  const events = useInfiniteQuery(
    trpc.jobs.events.infiniteQueryOptions(
      {
        id: jobId,
        limit: 50,
        ...(instance !== undefined ? { instance } : {}),
        ...(reason ? { reason } : {}),
      },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  // The reasons seen so far, offered in the reason filter.
  const seen = useRef(new Set<string>());
  for (const p of events.data?.pages ?? [])
    for (const e of p.items) if (e.reason) seen.current.add(e.reason);

  const items = events.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = instance !== undefined || reason !== "";
  return (
    <div className="space-y-2">
      <fieldset className="flex flex-wrap items-center gap-3 text-sm" aria-label="Filter events">
        <label htmlFor={`${ids}-instance`} className="flex items-center gap-2 text-muted">
          Instance
          <FilterInput
            id={`${ids}-instance`}
            inputMode="numeric"
            placeholder="any"
            value={instanceText}
            aria-invalid={badInstance}
            onCommit={(v) => setInstance(v || null)}
            className={`${INPUT} w-20 tabular-nums aria-[invalid=true]:border-bad`}
            data-testid="events-instance"
          />
        </label>
        <label htmlFor={`${ids}-reason`} className="flex items-center gap-2 text-muted">
          Reason
          <FilterInput
            id={`${ids}-reason`}
            list={`${ids}-reasons`}
            placeholder="any"
            value={reason}
            onCommit={(v) => setReason(v || null)}
            className={`${INPUT} w-44 font-mono text-xs`}
            data-testid="events-reason"
          />
          <datalist id={`${ids}-reasons`}>
            {[...seen.current].sort().map((r) => (
              <option key={r} value={r} />
            ))}
          </datalist>
        </label>
        {badInstance && (
          <span role="alert" className="text-xs text-bad">
            An instance is a whole number ≥ 0
          </span>
        )}
        {filtered && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setInstance(null);
              setReason(null);
            }}
          >
            Clear
          </Button>
        )}
      </fieldset>
      {events.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : events.isError ? (
        <LoadError what="The events" error={events.error} onRetry={() => events.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={filtered ? "No event matches the filter" : "No events yet"} />
      ) : (
        <div className="rounded-lg border border-border bg-surface px-4 py-2">
          <TransitionList events={items} jobId={jobId} testId="job-events" />
          {events.hasNextPage && (
            <Button
              size="sm"
              variant="ghost"
              className="mt-2"
              disabled={events.isFetchingNextPage}
              onClick={() => void events.fetchNextPage()}
            >
              {events.isFetchingNextPage ? "Loading…" : "Older events"}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
