"use client";
import { format, formatDistanceStrict } from "date-fns";
import { useNow } from "@/lib/use-now";

/**
 * "3 minutes ago", with the absolute time on hover (and `note`, when given);
 * kept current while shown (every second while it reads in seconds, then
 * every half minute). Until the page has mounted it shows the absolute time
 * in UTC: the server's clock and zone are not the browser's, and text that
 * differs between the two is a hydration error.
 */
export function RelativeTime({ at, note }: { at: Date; note?: string | null }) {
  // Only picks how often to re-render, never what is shown: safe to read the clock here.
  const fresh = Date.now() - at.getTime() < 90_000;
  const now = useNow(fresh ? 1000 : 30_000);
  const suffix = note ? ` — ${note}` : "";
  return (
    <time
      dateTime={at.toISOString()}
      title={`${now === null ? at.toISOString() : format(at, "yyyy-MM-dd HH:mm:ss xxx")}${suffix}`}
    >
      {now === null
        ? at.toISOString().slice(0, 16).replace("T", " ")
        : formatDistanceStrict(at, Math.max(now, at.getTime()), { addSuffix: true })}
    </time>
  );
}
