"use client";
import { AlertTriangle } from "lucide-react";
import { RetryCountdown } from "@/components/ui/retry-countdown";
import { useAutoRetry } from "@/lib/use-auto-retry";

/**
 * A page failed to render: say what happened and offer the next step. The
 * page is rendered again by itself (with backoff, and at once when the live
 * stream is back): the usual cause is a server or database restart.
 * `retry` (Next's) fetches the page from the server again; `reset` alone
 * would only re-render what the browser already has.
 */
export default function ErrorPage({
  error,
  retry,
}: {
  error: Error & { digest?: string };
  retry: () => void;
}) {
  const dueAt = useAutoRetry("page", retry);
  return (
    <div
      role="alert"
      className="mx-auto mt-10 max-w-xl rounded-lg border border-bad/40 bg-surface p-6"
    >
      <h1 className="flex items-center gap-2 font-semibold text-bad">
        <AlertTriangle className="size-5" aria-hidden /> This page could not load
      </h1>
      <p className="mt-2 text-muted">
        The console could not read the cluster state. The database or the server may be restarting.
      </p>
      <p className="mt-2 font-mono text-xs text-muted">
        {error.digest ? `error ${error.digest}` : error.message}
      </p>
      <div className="mt-4 flex items-baseline gap-4">
        <button
          type="button"
          onClick={retry}
          className="rounded-md bg-accent px-3 py-1.5 font-medium text-accent-fg hover:opacity-90"
        >
          Try again
        </button>
        <RetryCountdown dueAt={dueAt} />
      </div>
    </div>
  );
}
