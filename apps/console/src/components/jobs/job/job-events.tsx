"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { TransitionList } from "@/components/tasks/transition-list";
import { Button } from "@/components/ui/button";
import { EmptyState, Skeleton } from "@/components/ui/card";
import { LoadError } from "@/components/ui/load-error";
import { useTRPC } from "@/lib/trpc";

/** The job's timeline: every instance's transitions, newest first, older ones a page at a time. */
export function JobEvents({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const events = useInfiniteQuery(
    trpc.jobs.events.infiniteQueryOptions(
      { id: jobId, limit: 50 },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  if (events.isPending) return <Skeleton className="h-40 w-full" />;
  if (events.isError)
    return <LoadError what="The events" error={events.error} onRetry={() => events.refetch()} />;
  const items = events.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState title="No events yet" />;
  return (
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
  );
}
