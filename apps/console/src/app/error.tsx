"use client";
import { AlertTriangle } from "lucide-react";

/** A page failed to render: say what happened and offer the next step. */
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
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
      <button
        type="button"
        onClick={reset}
        className="mt-4 rounded-md bg-accent px-3 py-1.5 font-medium text-accent-fg hover:opacity-90"
      >
        Try again
      </button>
    </div>
  );
}
