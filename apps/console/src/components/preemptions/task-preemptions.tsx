"use client";
/**
 * When and why one task (a job's instance, over all its runs) was
 * preempted, and whether it came back: for the task page, and the details
 * of a preemption.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState, Skeleton } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { useTRPC } from "@/lib/trpc";
import { Beneficiary, CameBackCell, KindBadge } from "./preemption-bits";
import { writePreemptionsQuery } from "./preemptions-query";

const SHOWN = 20;

export function TaskPreemptions({
  jobId,
  instanceId,
  current,
}: {
  jobId: string;
  instanceId: number;
  /** The preemption being looked at, marked in the list. */
  current?: string;
}) {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.preemptions.list.queryOptions({ job: jobId, instance: instanceId, limit: SHOWN }),
  );
  if (list.isPending) return <Skeleton className="h-16 w-full" />;
  if (list.isError)
    return (
      <EmptyState title="This task's preemptions could not be loaded">
        {list.error.message}
      </EmptyState>
    );
  const items = list.data.items;
  if (items.length === 0)
    return (
      <EmptyState title="Never preempted">
        No run of this task was preempted. When one is, it shows here with the rule and the numbers.
      </EmptyState>
    );
  const href = (open: string | null) =>
    `/preemptions${writePreemptionsQuery({ job: jobId, instance: instanceId, cursor: null, open })}`;
  return (
    <div className="space-y-2" data-testid="task-preemptions">
      <ol className="divide-y divide-border rounded-md border border-border">
        {items.map((p) => (
          <li
            key={p.id}
            data-preemption={p.id}
            aria-current={p.id === current ? "true" : undefined}
            className={`space-y-1 px-3 py-2 text-sm ${p.id === current ? "bg-surface-2" : ""}`}
          >
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <RelativeTime at={p.at} />
              <span className="text-muted">run {p.victim.runId}</span>
              <KindBadge kind={p.kind} />
              <span className="text-muted">for</span>
              <Beneficiary p={p} />
              <span className="ml-auto">
                <CameBackCell p={p} />
              </span>
            </div>
            {p.id === current ? (
              <p className="text-xs text-muted">The one shown above.</p>
            ) : (
              <>
                <p className="text-muted">{p.reason}</p>
                <Link href={href(p.id)} className="text-xs text-accent hover:underline">
                  The numbers →
                </Link>
              </>
            )}
          </li>
        ))}
      </ol>
      {list.data.nextCursor && (
        <Link href={href(null)} className="text-xs text-accent hover:underline">
          All of this task&apos;s preemptions →
        </Link>
      )}
    </div>
  );
}
