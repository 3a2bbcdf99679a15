"use client";
import { format, formatDistanceStrict } from "date-fns";
import { useNow } from "@/lib/use-now";

/**
 * "3 minutes ago", with the absolute time on hover; kept current while shown
 * (every second while it reads in seconds, then every half minute).
 */
export function RelativeTime({ at }: { at: Date }) {
  const fresh = Date.now() - at.getTime() < 90_000;
  const now = useNow(fresh ? 1000 : 30_000);
  return (
    <time
      dateTime={at.toISOString()}
      title={now === null ? at.toISOString() : format(at, "yyyy-MM-dd HH:mm:ss xxx")}
    >
      {now === null
        ? at.toISOString().slice(0, 16).replace("T", " ")
        : formatDistanceStrict(at, Math.max(now, at.getTime()), { addSuffix: true })}
    </time>
  );
}
