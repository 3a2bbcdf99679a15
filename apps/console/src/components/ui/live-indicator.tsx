"use client";
import { useLive } from "@/lib/live";
import { describeLive, type LiveTone } from "@/lib/live-words";
import { formatAbsolute } from "@/lib/time";
import { useNow } from "@/lib/use-now";

const DOT: Record<LiveTone, string> = {
  ok: "animate-pulse bg-ok",
  warn: "bg-warn",
  bad: "bg-bad",
};

/**
 * Whether the view is live (the server pushes changes), and when its data was
 * last fetched; offline, since when and when it tries again. `failing` is the
 * page's own query failing.
 */
export function LiveIndicator({ updatedAt, failing }: { updatedAt: number; failing: boolean }) {
  const live = useLive();
  const now = useNow(1000);
  const { text, tone } = describeLive(live, { updatedAt, failing, now });
  return (
    <span
      className="flex items-center gap-1.5 text-xs text-muted"
      data-testid="live-indicator"
      data-live={tone === "ok"}
      data-status={live.status}
      role="status"
      title={updatedAt && now !== null ? `Data fetched ${formatAbsolute(updatedAt)}` : undefined}
    >
      <span aria-hidden className={`size-2 shrink-0 rounded-full ${DOT[tone]}`} />
      <span className={tone === "bad" ? "text-bad" : undefined}>{text}</span>
    </span>
  );
}
