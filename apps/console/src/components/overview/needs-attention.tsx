"use client";
/**
 * The overview's "needs attention": what someone should look at now, each a
 * link to the page where it is fixed — hosts not taking work (hosts page),
 * crash-looping services and runs pending too long (the job), pools over
 * their entitlement or blocked (the pool), failed updates (the job's
 * updates). Empty, it says the cluster is fine.
 */
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2 } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Skeleton } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Attention } from "@/lib/api-types";
import { formatCount, formatDuration, formatResource, formatResourcePair } from "@/lib/format";
import { poolHref } from "@/lib/pools";
import { useTRPC } from "@/lib/trpc";

const REFRESH_MS = 30_000;

interface Item {
  key: string;
  tone: "bad" | "warn";
  href: string;
  what: ReactNode;
  why: ReactNode;
}

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;

function itemsOf(a: Attention): Item[] {
  const items: Item[] = [];
  for (const h of a.hosts)
    items.push({
      key: `host-${h.hostname}`,
      tone: h.state === "LOST" ? "bad" : "warn",
      href: `/hosts/${encodeURIComponent(h.hostname)}`,
      what: (
        <>
          Host <span className="font-mono">{h.hostname}</span> is {h.state}
        </>
      ),
      why: (
        <>
          {h.stateReason ? `${h.stateReason} · ` : ""}since <RelativeTime at={h.stateSince} />
        </>
      ),
    });
  for (const j of a.crashLooping)
    items.push({
      key: `crash-${j.jobId}`,
      tone: "bad",
      href: `/jobs/${j.jobId}`,
      what: (
        <>
          <span className="font-medium">{j.jobName}</span> is crash-looping
        </>
      ),
      why: (
        <>
          {plural(j.instances, "instance")} waiting out a restart backoff
          {j.since && (
            <>
              {" "}
              · since <RelativeTime at={j.since} />
            </>
          )}
        </>
      ),
    });
  for (const p of a.pools)
    for (const c of p.concerns)
      items.push({
        key: `pool-${p.path}-${c.kind}-${c.code}`,
        tone: c.code === "OVER_ENTITLEMENT" ? "warn" : "bad",
        href: poolHref(p.path),
        what: (
          <>
            Pool <span className="font-mono">{p.path}</span>{" "}
            {c.code === "OVER_ENTITLEMENT"
              ? `is over its ${c.kind} entitlement`
              : `is blocked on ${c.kind}`}
          </>
        ),
        why:
          c.code === "OVER_ENTITLEMENT"
            ? `allocated / entitled ${formatResourcePair(c.kind, c.allocation, c.entitlement)}: its preemptible tasks are the first to be preempted`
            : `${formatResource(c.kind, c.demand)} waiting; allocated / entitled ${formatResourcePair(c.kind, c.allocation, c.entitlement)}`,
      });
  for (const j of a.stuckPending)
    items.push({
      key: `pending-${j.jobId}`,
      tone: "warn",
      href: `/jobs/${j.jobId}`,
      what: (
        <>
          <span className="font-medium">{j.jobName}</span> has been pending over{" "}
          {formatDuration(a.pendingForSeconds * 1000)}
        </>
      ),
      why: (
        <>
          {plural(j.instances, "instance")} pending
          {j.since && (
            <>
              {" "}
              · the oldest since <RelativeTime at={j.since} />
            </>
          )}
        </>
      ),
    });
  for (const u of a.failedUpdates)
    items.push({
      key: `update-${u.id}`,
      tone: "bad",
      href: `/jobs/${u.jobId}?tab=updates`,
      what: (
        <>
          The update of <span className="font-medium">{u.jobName}</span> failed
        </>
      ),
      why: (
        <>
          started <RelativeTime at={u.createdAt} />
        </>
      ),
    });
  return items;
}

export function NeedsAttention() {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.overview.attention.queryOptions(
      {},
      { refetchInterval: REFRESH_MS, refetchIntervalInBackground: false },
    ),
  );
  if (query.isPending)
    return (
      <div className="space-y-2">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  if (query.isError)
    return <p className="text-bad">Could not read what needs attention: {query.error.message}</p>;
  const items = itemsOf(query.data);
  if (items.length === 0)
    return (
      <p className="flex items-center gap-2 text-muted" data-testid="attention-none">
        <CheckCircle2 className="size-4 text-ok" aria-hidden />
        Nothing needs attention: every host is up, no service is crash-looping, no pool is over its
        entitlement or blocked, nothing has waited over{" "}
        {formatDuration(query.data.pendingForSeconds * 1000)}, no update has failed.
      </p>
    );
  return (
    <ul className="divide-y divide-border" data-testid="attention">
      {items.map((i) => (
        <li key={i.key} data-item={i.key} className="flex items-baseline gap-3 py-1.5">
          <AlertTriangle
            className={`size-3.5 shrink-0 self-center ${i.tone === "bad" ? "text-bad" : "text-warn"}`}
            aria-hidden
          />
          <Link href={i.href} className="min-w-0 shrink-0 hover:underline">
            {i.what}
          </Link>
          <span className="min-w-0 flex-1 truncate text-xs text-muted">{i.why}</span>
        </li>
      ))}
    </ul>
  );
}
