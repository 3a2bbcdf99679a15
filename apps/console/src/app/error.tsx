"use client";
import { AlertTriangle } from "lucide-react";
import { useCallback } from "react";
import { RetryCountdown } from "@/components/ui/retry-countdown";
import { useAutoRetry } from "@/lib/use-auto-retry";
import { serverAnswers, useServerGone } from "@/lib/use-server-gone";

/**
 * A page failed to render: say what happened and offer the next step. The
 * usual cause is a server or database restart, so the page is rendered again
 * by itself (with backoff, and at once when the live stream is back).
 * `retry` (Next's) fetches the page from the server again; `reset` alone
 * would only re-render what the browser already has. Never while the server
 * does not answer at all: a refresh whose fetch fails replaces the whole app
 * with Next's "This page couldn't load", which does not come back by itself.
 * So each attempt first asks the server something cheap, and while the
 * server is gone (the live stream says so and the server does not answer)
 * the attempts pause altogether.
 */
export default function ErrorPage({
  error,
  retry,
}: {
  error: Error & { digest?: string };
  retry: () => void;
}) {
  const serverGone = useServerGone();
  const retryIfServerAnswers = useCallback(async () => {
    if (await serverAnswers()) retry();
  }, [retry]);
  const dueAt = useAutoRetry("page", retryIfServerAnswers, !serverGone);
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
          onClick={() => void retryIfServerAnswers()}
          disabled={serverGone}
          title={
            serverGone
              ? "The server does not answer: this page loads again when it is back"
              : undefined
          }
          className="rounded-md bg-accent px-3 py-1.5 font-medium text-accent-fg hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Try again
        </button>
        {serverGone ? (
          <span className="text-xs text-muted" data-testid="auto-retry">
            Waiting for the server to answer…
          </span>
        ) : (
          <RetryCountdown dueAt={dueAt} />
        )}
      </div>
    </div>
  );
}
