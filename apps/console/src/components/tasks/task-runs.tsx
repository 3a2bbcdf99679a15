"use client";
import { useQuery } from "@tanstack/react-query";
import { ChevronDown, ChevronRight } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Skeleton } from "@/components/ui/card";
import { LoadError } from "@/components/ui/load-error";
import { RelativeTime } from "@/components/ui/relative-time";
import type { TaskDetail, TaskRun } from "@/lib/api-types";
import { formatDuration } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";
import { useNow } from "@/lib/use-now";
import { StateBadge } from "../jobs/state-badge";
import { TransitionList } from "./transition-list";

function RunTransitions({
  jobId,
  instance,
  run,
}: {
  jobId: string;
  instance: number;
  run: number;
}) {
  const trpc = useTRPC();
  const events = useQuery(trpc.tasks.events.queryOptions({ jobId, instance, run, limit: 1000 }));
  if (events.isPending) return <Skeleton className="h-16 w-full" />;
  if (events.isError)
    return (
      <LoadError what="The transitions" error={events.error} onRetry={() => events.refetch()} />
    );
  return <TransitionList events={events.data.items} />;
}

/**
 * The instance's pod history: every run, newest first, with where it ran,
 * how it ended and why; each run opens to its transitions (the current one
 * is open).
 */
export function TaskRuns({ task }: { task: TaskDetail }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(
    new Set([task.runs[0]?.runId ?? task.runId]),
  );
  const now = useNow(5000);
  const toggle = (run: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      next.has(run) ? next.delete(run) : next.add(run);
      return next;
    });
  if (task.runs.length === 0)
    return <p className="text-muted">No run has started yet: the instance waits to be admitted.</p>;
  return (
    <ol className="space-y-2" data-testid="task-runs">
      {task.runs.map((r: TaskRun) => {
        const expanded = open.has(r.runId);
        const ran =
          r.startedAt && now !== null
            ? formatDuration((r.finishedAt?.getTime() ?? now) - r.startedAt.getTime())
            : null;
        return (
          <li
            key={r.runId}
            className="rounded-md border border-border"
            data-run={r.runId}
            data-state={r.state}
          >
            <button
              type="button"
              aria-expanded={expanded}
              onClick={() => toggle(r.runId)}
              className="flex w-full flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-left hover:bg-surface-2/60"
            >
              {expanded ? (
                <ChevronDown className="size-4" aria-hidden />
              ) : (
                <ChevronRight className="size-4" aria-hidden />
              )}
              <span className="font-medium">Run {r.runId}</span>
              <StateBadge state={r.state} />
              {r.hostname && <span className="font-mono text-xs">{r.hostname}</span>}
              <span className="text-xs text-muted">
                {r.startedAt ? (
                  <>
                    started <RelativeTime at={r.startedAt} />
                    {ran && ` · ran ${ran}`}
                  </>
                ) : (
                  <>
                    queued <RelativeTime at={r.firstAt} />
                  </>
                )}
              </span>
              {(r.reason || r.message) && (
                <span
                  className="min-w-0 basis-full truncate pl-8 text-xs text-muted"
                  title={r.message ?? undefined}
                >
                  {r.reason && <span className="font-mono">{r.reason} </span>}
                  {r.message}
                </span>
              )}
            </button>
            {expanded && (
              <div className="border-t border-border px-3 py-1">
                {r.clusterTaskId && (
                  <p className="py-1 font-mono text-xs text-muted">task id {r.clusterTaskId}</p>
                )}
                <RunTransitions jobId={task.jobId} instance={task.instanceId} run={r.runId} />
                {r.hostname && (
                  <Link
                    href={`/hosts/${encodeURIComponent(r.hostname)}`}
                    className="text-xs text-accent hover:underline"
                  >
                    Host {r.hostname}
                  </Link>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
