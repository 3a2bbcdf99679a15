"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { ChevronRight, GitCompare } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState, RowsSkeleton } from "@/components/ui/card";
import { LoadError } from "@/components/ui/load-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { useTRPC } from "@/lib/trpc";
import { ConfigVersionDiff } from "./config-version-diff";
import { UpdateHistory } from "./update-history";
import { UpdateProgress } from "./update-progress";
import { UpdateStateBadge } from "./update-state-badge";
import type { UpdateView } from "./update-types";

const KIND_WORDS: Record<UpdateView["kind"], string> = {
  UPDATE: "Update",
  RESTART: "Rolling restart",
  START: "Rolling start",
  STOP: "Rolling stop",
};

function Versions({ u, onCompare }: { u: UpdateView; onCompare: () => void }) {
  if (u.fromVersion === u.toVersion) return <span className="tabular-nums">v{u.toVersion}</span>;
  return (
    <span className="inline-flex items-center gap-1.5 tabular-nums">
      v{u.fromVersion} → v{u.toVersion}
      <button
        type="button"
        onClick={onCompare}
        className="inline-flex items-center gap-0.5 text-xs text-accent hover:underline"
        aria-label={`Compare version ${u.fromVersion} with version ${u.toVersion}`}
      >
        <GitCompare className="size-3.5" aria-hidden />
        diff
      </button>
    </span>
  );
}

function UpdateItem({ u, onCompare }: { u: UpdateView; onCompare: () => void }) {
  const [open, setOpen] = useState(false);
  const historyId = `update-history-${u.id}`;
  return (
    <li
      className="grid grid-cols-1 gap-x-6 gap-y-2 px-4 py-3 md:grid-cols-[minmax(12rem,16rem)_minmax(0,1fr)]"
      data-testid="update-row"
      data-update={u.id}
      data-state={u.state}
    >
      <div className="min-w-0 space-y-0.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{KIND_WORDS[u.kind]}</span>
          <UpdateStateBadge update={u} />
        </div>
        <p className="text-xs text-muted">
          <Versions u={u} onCompare={onCompare} />
        </p>
        <p className="text-xs text-muted">
          {u.actor ? (
            <>
              by <span className="text-fg">{u.actor}</span> ·{" "}
            </>
          ) : null}
          <RelativeTime at={u.createdAt} />
        </p>
        <p className="font-mono text-[11px] text-muted" title="Update id">
          {u.id}
        </p>
      </div>
      <div className="min-w-0 space-y-1.5">
        <UpdateProgress update={u} />
        <p className="text-xs text-muted">
          batches of {u.options.batchSize || `${u.options.batchPercentage}%`}
          {u.options.maxFailureInstances > 0 &&
            ` · fails after ${u.options.maxFailureInstances} failed instances`}
          {u.options.maxInstanceAttempts > 0 &&
            ` · ${u.options.maxInstanceAttempts} attempts per instance`}
          {u.options.rollbackOnFailure && " · rolls back on failure"}
          {u.options.inPlace && " · in place"}
        </p>
        {u.message && <p className="text-xs">{u.message}</p>}
        <button
          type="button"
          aria-expanded={open}
          aria-controls={historyId}
          onClick={() => setOpen(!open)}
          className="inline-flex items-center gap-1 text-xs text-accent hover:underline"
        >
          <ChevronRight
            className={`size-3.5 transition-transform ${open ? "rotate-90" : ""}`}
            aria-hidden
          />
          History
        </button>
        {open && (
          <div id={historyId} className="rounded-md bg-surface-2/60 px-3 py-2">
            <UpdateHistory updateId={u.id} />
          </div>
        )}
      </div>
    </li>
  );
}

/**
 * The job's updates, newest first (rolling updates, restarts, starts,
 * stops): state, who started it, the versions it moves between, progress
 * per batch and Peloton's three counts, live; then any two configuration
 * versions compared side by side.
 */
export function UpdatesTab({ jobId, currentVersion }: { jobId: string; currentVersion: number }) {
  const trpc = useTRPC();
  const updates = useInfiniteQuery(
    trpc.updates.list.infiniteQueryOptions(
      { jobId, limit: 20 },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  const compare = (u: UpdateView) => {
    const p = new URLSearchParams(window.location.search);
    p.set("from", String(u.fromVersion));
    p.set("to", String(u.toVersion));
    window.history.replaceState(null, "", `${window.location.pathname}?${p}`);
    document.getElementById("version-diff")?.scrollIntoView({ behavior: "smooth" });
  };

  return (
    <div className="space-y-6">
      {updates.isPending ? (
        <RowsSkeleton tall />
      ) : updates.isError ? (
        <LoadError what="The updates" error={updates.error} onRetry={() => updates.refetch()} />
      ) : (
        (() => {
          const items = updates.data.pages.flatMap((p) => p.items);
          if (items.length === 0)
            return (
              <EmptyState title="This job has not been updated yet">
                Use Update to roll out a new configuration in batches, or Rolling restart to restart
                its instances a batch at a time.
              </EmptyState>
            );
          return (
            <div>
              <ul
                className="divide-y divide-border rounded-lg border border-border bg-surface"
                aria-label="Updates, newest first"
                data-testid="updates-list"
              >
                {items.map((u) => (
                  <UpdateItem key={u.id} u={u} onCompare={() => compare(u)} />
                ))}
              </ul>
              {updates.hasNextPage && (
                <Button
                  size="sm"
                  variant="ghost"
                  className="mt-2"
                  disabled={updates.isFetchingNextPage}
                  onClick={() => void updates.fetchNextPage()}
                >
                  {updates.isFetchingNextPage ? "Loading…" : "Older updates"}
                </Button>
              )}
            </div>
          );
        })()
      )}
      <div id="version-diff">
        <ConfigVersionDiff jobId={jobId} current={currentVersion} />
      </div>
    </div>
  );
}
