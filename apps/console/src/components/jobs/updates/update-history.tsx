"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { LoadError } from "@/components/ui/load-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { useTRPC } from "@/lib/trpc";
import { UpdateStateBadge } from "./update-state-badge";

/** One update's history (`updates.events`): each change of state, who made it and why, newest first. */
export function UpdateHistory({ updateId }: { updateId: string }) {
  const trpc = useTRPC();
  const events = useInfiniteQuery(
    trpc.updates.events.infiniteQueryOptions(
      { id: updateId, limit: 20 },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  if (events.isPending) return <Skeleton className="h-16 w-full" />;
  if (events.isError)
    return (
      <LoadError
        what="The update's history"
        error={events.error}
        onRetry={() => events.refetch()}
      />
    );
  const items = events.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <p className="text-xs text-muted">No history yet.</p>;
  return (
    <div>
      <ol className="space-y-1 text-xs" data-testid="update-history">
        {items.map((e) => (
          <li key={e.id} className="flex flex-wrap items-baseline gap-x-2">
            <span className="w-28 shrink-0 text-muted">
              <RelativeTime at={e.at} />
            </span>
            <UpdateStateBadge
              update={{ state: e.state, previousState: null }}
              testId="history-state"
            />
            {e.actor && <span className="text-muted">by {e.actor}</span>}
            {e.message && <span className="min-w-0 text-fg">{e.message}</span>}
          </li>
        ))}
      </ol>
      {events.hasNextPage && (
        <Button
          size="sm"
          variant="ghost"
          className="mt-1"
          disabled={events.isFetchingNextPage}
          onClick={() => void events.fetchNextPage()}
        >
          {events.isFetchingNextPage ? "Loading…" : "Older changes"}
        </Button>
      )}
    </div>
  );
}
