"use client";
import { useQuery } from "@tanstack/react-query";
import { Crown } from "lucide-react";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatAbsolute } from "@/lib/time";
import { useTRPC } from "@/lib/trpc";

/** Which replica leads the scheduler (holds the lease), and since when. */
export function LeaderBadge() {
  const trpc = useTRPC();
  const { data } = useQuery(
    trpc.system.leader.queryOptions(undefined, { refetchInterval: 10_000 }),
  );
  if (data === undefined) return null;
  const text =
    data.holder === null
      ? "No scheduler has led yet"
      : data.live
        ? `Scheduler leader: ${data.holder}`
        : `No live leader (last: ${data.holder})`;
  return (
    <p
      className={`flex items-center gap-1.5 text-xs ${data.live ? "text-muted" : "text-warn"}`}
      data-testid="scheduler-leader"
      data-live={data.live}
      title={
        data.since
          ? `leading since ${formatAbsolute(new Date(data.since))}${data.frameworkId ? ` · Mesos framework ${data.frameworkId}` : ""}`
          : undefined
      }
    >
      <Crown className="size-3.5" aria-hidden />
      {text}
      {data.live && data.since && (
        <span>
          · since <RelativeTime at={new Date(data.since)} />
        </span>
      )}
    </p>
  );
}
