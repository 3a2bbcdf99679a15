"use client";
import { useClock } from "@/lib/clock";
import { formatAbsolute, formatRelative } from "@/lib/time";

/**
 * "3 minutes ago", with the absolute time on hover (and `note`, when given),
 * ticking with the page's one clock: every second while it reads in
 * seconds, then as often as its words can change. Until the page has
 * mounted it shows the absolute time in UTC: the server's clock and zone
 * are not the browser's, and text that differs between the two is a
 * hydration error.
 */
export function RelativeTime({ at, note }: { at: Date; note?: string | null }) {
  // Only picks how often to re-render, never what is shown: safe to read the clock here.
  const age = Date.now() - at.getTime();
  const now = useClock(age < 90_000 ? 1000 : age < 3_600_000 ? 15_000 : 60_000);
  const suffix = note ? ` — ${note}` : "";
  return (
    <time
      dateTime={at.toISOString()}
      title={`${now === null ? at.toISOString() : formatAbsolute(at)}${suffix}`}
    >
      {now === null ? at.toISOString().slice(0, 16).replace("T", " ") : formatRelative(at, now)}
    </time>
  );
}
