"use client";
/**
 * The cluster's recent activity on the overview (console.md: pool edits, job
 * submissions, drains, preemptions in one feed): the newest audit entries and
 * preemptions merged by time, each a link to where it happened. Live: both
 * lists are invalidated by their own announcements.
 */
import { describeAuditChange } from "@peloton/api/schemas";
import { useQuery } from "@tanstack/react-query";
import { ArrowRightLeft, History, Power } from "lucide-react";
import Link from "next/link";
import { targetHref } from "@/components/audit/audit-target";
import { EmptyState, Skeleton } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import type { AuditEntry } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";

const SHOWN = 8;

type AuditItem = AuditEntry;

/**
 * One audit entry in words: what the system did (a scheduler took the lead,
 * a host went down) as a sentence; a person's change as who, what and the
 * target by name (a job's name, not its UUID), with the fields that moved.
 */
export function describeActivity(e: AuditItem): { text: string; detail: string } {
  const after = (e.after ?? {}) as Record<string, unknown>;
  if (e.action === "scheduler.lead")
    return {
      text: `Scheduler ${e.targetId} took the lead`,
      detail: `a scheduler started or failed over${typeof after.epoch === "number" ? ` (term ${after.epoch})` : ""}`,
    };
  if (e.action === "host.lost")
    return {
      text: `Host ${e.targetId} was lost (its agent is gone)`,
      detail:
        typeof after.reason === "string" && after.reason ? after.reason : "the cluster lost it",
    };
  if (e.action === "host.down" || e.action === "host.up")
    return {
      text:
        e.action === "host.down"
          ? `Host ${e.targetId} went DOWN for maintenance`
          : `Host ${e.targetId} is back UP after maintenance`,
      detail: typeof after.reason === "string" ? after.reason : "",
    };
  const target = e.targetName ?? e.targetId;
  return {
    text: `${e.actor} · ${e.action} ${target}`,
    detail: describeAuditChange(e.before, e.after),
  };
}

interface Item {
  key: string;
  at: Date;
  kind: "change" | "system" | "preemption";
  text: string;
  detail: string;
  href: string | null;
}

export function ActivityFeed() {
  const trpc = useTRPC();
  // Changes only: refused attempts changed nothing (the audit page shows them).
  const audit = useQuery(trpc.audit.list.queryOptions({ outcome: "allowed", limit: SHOWN }));
  const preemptions = useQuery(trpc.preemptions.list.queryOptions({ limit: SHOWN }));
  if (audit.isPending || preemptions.isPending)
    return (
      <div className="space-y-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </div>
    );
  const items: Item[] = [
    ...(audit.data?.items ?? []).map((e) => ({
      key: `a${e.id}`,
      at: e.at,
      kind: e.actor === "system" ? ("system" as const) : ("change" as const),
      ...describeActivity(e),
      href: targetHref(e.targetType, e.targetId),
    })),
    ...(preemptions.data?.items ?? []).map((p) => ({
      key: `p${p.id}`,
      at: p.at,
      kind: "preemption" as const,
      text: `${p.victim.jobName}/${p.victim.instanceId} preempted in ${p.victim.poolPath}`,
      detail: p.beneficiary ? `for ${p.beneficiary.poolPath}` : "the pool's entitlement shrank",
      href: `/preemptions?open=${p.id}`,
    })),
  ]
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, SHOWN);
  if (items.length === 0)
    return (
      <EmptyState title="Nothing has happened yet">
        Pool edits, job submissions, drains and preemptions show up here as they happen.
      </EmptyState>
    );
  return (
    <ul className="divide-y divide-border" data-testid="activity">
      {items.map((i) => {
        const Icon =
          i.kind === "preemption" ? ArrowRightLeft : i.kind === "system" ? Power : History;
        const text = <span className="truncate">{i.text}</span>;
        return (
          <li key={i.key} className="flex items-baseline gap-3 py-1.5" data-kind={i.kind}>
            <Icon className="size-3.5 shrink-0 self-center text-muted" aria-hidden />
            {i.href ? (
              <Link href={i.href} className="min-w-0 truncate hover:underline">
                {text}
              </Link>
            ) : (
              text
            )}
            <span className="min-w-0 flex-1 truncate text-xs text-muted">{i.detail}</span>
            <span className="shrink-0 text-xs text-muted">
              <RelativeTime at={i.at} />
            </span>
          </li>
        );
      })}
    </ul>
  );
}
