"use client";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { DiffView } from "@/components/ui/diff-view";
import { RelativeTime } from "@/components/ui/relative-time";
import type { PoolHistoryPage } from "@/lib/api-types";
import { settingLabel, settingValue } from "@/lib/pools";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam } from "@/lib/url-state";

const PAGE = 20;
const ACTION_TONE = { CREATE: "text-ok", UPDATE: "text-info", DELETE: "text-bad" } as const;

/** Who changed the pool, when, and each setting before → after; newest first, a page at a time. */
export function PoolHistory({ path, initial }: { path: string; initial: PoolHistoryPage }) {
  const trpc = useTRPC();
  const [cursor, setCursor] = useSearchParam<string>("before", "");
  const query = useQuery(
    trpc.pools.history.queryOptions(
      { path, limit: PAGE, cursor: cursor || null },
      cursor ? {} : { initialData: initial },
    ),
  );
  const page = query.data;
  if (!page) return <p className="text-muted">Loading the history…</p>;
  if (page.items.length === 0)
    return (
      <EmptyState title="No changes recorded">
        Changes made through the console, the CLI or the API appear here.
      </EmptyState>
    );
  return (
    <div className="space-y-3">
      <ol className="space-y-3" data-testid="history">
        {page.items.map((e) => (
          <li
            key={e.id}
            className="rounded-lg border border-border bg-surface p-3"
            data-testid="history-entry"
            data-action={e.action}
          >
            <p className="mb-2 flex flex-wrap items-baseline gap-x-2">
              <span className={`font-semibold ${ACTION_TONE[e.action]}`}>
                {e.action.toLowerCase()}d
              </span>
              <span>
                by <strong data-testid="history-actor">{e.actor}</strong>
              </span>
              <span className="text-muted">
                <RelativeTime at={e.at} />
              </span>
              <span className="text-xs text-muted">version {e.version}</span>
            </p>
            <DiffView changes={e.changes} label={settingLabel} format={settingValue} />
          </li>
        ))}
      </ol>
      <div className="flex gap-2">
        {cursor && <Button onClick={() => setCursor(null)}>Newest</Button>}
        {page.nextCursor && (
          <Button onClick={() => setCursor(page.nextCursor)}>Older changes</Button>
        )}
      </div>
    </div>
  );
}
