"use client";
import { useNow } from "@/lib/use-now";

/** "Trying again by itself in 4 s" for an error that retries on its own (useAutoRetry's `dueAt`). */
export function RetryCountdown({ dueAt }: { dueAt: number | null }) {
  const now = useNow(1000);
  return (
    <span className="text-xs text-muted" data-testid="auto-retry">
      {dueAt === null || now === null
        ? "Trying again…"
        : `Trying again by itself in ${Math.max(1, Math.ceil((dueAt - now) / 1000))} s`}
    </span>
  );
}
