"use client";
import { formatDistanceStrict } from "date-fns";
import { useLive } from "@/lib/live";
import { useNow } from "@/lib/use-now";

/**
 * Whether the view is live (the server pushes changes), and when its data was
 * last fetched. `failing` is the page's own query failing.
 */
export function LiveIndicator({ updatedAt, failing }: { updatedAt: number; failing: boolean }) {
  const { status } = useLive();
  const now = useNow(1000);
  const ago = !updatedAt
    ? "never"
    : now === null
      ? "just now"
      : formatDistanceStrict(updatedAt, Math.max(now, updatedAt), { addSuffix: true });
  const live = status === "live" && !failing;
  const text = failing
    ? `Not live: the server is unreachable; data from ${ago}`
    : status === "live"
      ? updatedAt
        ? `Live · updated ${ago}`
        : "Live"
      : status === "connecting"
        ? `Connecting to live updates… data from ${ago}`
        : `Not live: reconnecting; data from ${ago}`;
  return (
    <span
      className="flex items-center gap-1.5 text-xs text-muted"
      data-testid="live-indicator"
      data-live={live}
      role="status"
      title={updatedAt && now !== null ? new Date(updatedAt).toLocaleString() : undefined}
    >
      <span
        aria-hidden
        className={`size-2 rounded-full ${live ? "animate-pulse bg-ok" : failing || status === "offline" ? "bg-bad" : "bg-warn"}`}
      />
      {text}
    </span>
  );
}
