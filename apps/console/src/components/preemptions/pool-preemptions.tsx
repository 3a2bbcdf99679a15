"use client";
/**
 * Preemptions in and out of one pool, for its page: counts over time (what
 * was taken from it, what was given to it, what moved within it by priority)
 * and the latest ones, each a link to its numbers.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { EmptyState, Skeleton } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import type { PreemptionRow } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";
import { CountsChart } from "./counts-chart";
import { Beneficiary, CameBackCell, KindBadge, TaskLink } from "./preemption-bits";
import { writePreemptionsQuery } from "./preemptions-query";

const RANGES = [
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "", label: "all time" },
] as const;
const RECENT = 10;

/** Which way a preemption went, seen from `pool`. */
function sideOf(p: PreemptionRow, pool: string): "out" | "in" | "within" {
  if (p.kind === "INTRA_POOL") return "within";
  return p.victim.poolPath === pool ? "out" : "in";
}

const SIDE_WORDS = { out: "taken from it", in: "given to it", within: "within it" } as const;

export function PoolPreemptions({ path }: { path: string }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<(typeof RANGES)[number]["value"]>("7d");
  const filters = { pool: path, ...(range ? { since: range } : {}) };
  const counts = useQuery(trpc.preemptions.countsByPool.queryOptions(filters));
  const recent = useQuery(trpc.preemptions.list.queryOptions({ ...filters, limit: RECENT }));
  const totals = counts.data?.pools.find((p) => p.pool === path);
  const sum = (xs: number[] | undefined) => (xs ?? []).reduce((a, b) => a + b, 0);
  const page = (open: string | null) =>
    `/preemptions${writePreemptionsQuery({ ...filters, cursor: null, open })}`;
  return (
    <section
      aria-label={`Preemptions in and out of ${path}`}
      className="space-y-3"
      data-testid="pool-preemptions"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm" data-testid="pool-preemption-totals">
          <span className="font-semibold tabular-nums">{formatCount(sum(totals?.out))}</span>{" "}
          <span className="text-muted">taken from it ·</span>{" "}
          <span className="font-semibold tabular-nums">{formatCount(sum(totals?.in))}</span>{" "}
          <span className="text-muted">given to it ·</span>{" "}
          <span className="font-semibold tabular-nums">{formatCount(sum(totals?.within))}</span>{" "}
          <span className="text-muted">within it</span>
        </p>
        <fieldset className="flex gap-1">
          <legend className="sr-only">Time range</legend>
          {RANGES.map((r) => (
            <button
              key={r.value}
              type="button"
              aria-pressed={range === r.value}
              onClick={() => setRange(r.value)}
              className={`rounded-md border px-2 py-0.5 text-xs ${
                range === r.value
                  ? "border-accent bg-surface-2"
                  : "border-border text-muted hover:text-fg"
              }`}
            >
              {r.label}
            </button>
          ))}
        </fieldset>
      </div>
      {counts.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : counts.isError ? (
        <EmptyState title="The counts could not be loaded">{counts.error.message}</EmptyState>
      ) : (
        <CountsChart counts={counts.data} pool={path} />
      )}
      {recent.data && recent.data.items.length === 0 ? (
        <EmptyState
          title={`No preemption in or out of ${path} ${range ? `in the last ${RANGES.find((r) => r.value === range)!.label}` : "yet"}`}
        >
          Its tasks are preempted when it holds more than its entitlement while another pool waits,
          or when a higher-priority task of its own waits; it gains when it waits below its
          entitlement, or when its demand takes another pool's.
        </EmptyState>
      ) : (
        <ol className="divide-y divide-border rounded-md border border-border text-sm">
          {(recent.data?.items ?? []).map((p) => {
            const side = sideOf(p, path);
            return (
              <li
                key={p.id}
                data-side={side}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5"
              >
                <span className="w-28 text-muted">
                  <RelativeTime at={p.at} />
                </span>
                <KindBadge kind={p.kind} />
                <span className="text-xs text-muted">{SIDE_WORDS[side]}:</span>
                <TaskLink task={p.victim} />
                {side === "in" && <span className="text-muted">from {p.victim.poolPath}</span>}
                {side !== "in" && (
                  <span className="text-muted">
                    for <Beneficiary p={p} />
                  </span>
                )}
                <CameBackCell p={p} />
                <Link href={page(p.id)} className="ml-auto text-xs text-accent hover:underline">
                  Why →
                </Link>
              </li>
            );
          })}
        </ol>
      )}
      <Link href={page(null)} className="text-sm text-accent hover:underline">
        All preemptions in and out of {path} →
      </Link>
    </section>
  );
}
