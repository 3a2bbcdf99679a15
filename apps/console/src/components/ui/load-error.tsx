"use client";
import { describeApiError, hasInputIssues } from "@/lib/api-errors";
import { useAutoRetry } from "@/lib/use-auto-retry";
import { RetryCountdown } from "./retry-countdown";

/**
 * A list or page part that could not be loaded: what, the server's words, and
 * what to do next. A request the API refused for its input (with filters: a
 * filter in the URL that is not valid) names the field, and trying again
 * would not help; clearing the filters would. Anything else is tried again
 * by itself (with backoff, and at once when the server is back) and can be
 * retried by hand.
 */
export function LoadError({
  what,
  error,
  onRetry,
  onClearFilters,
}: {
  /** "The hosts", "The instances". */
  what: string;
  error: { message: string; data?: unknown };
  /** May return a promise (a query's refetch): automatic attempts wait for it. */
  onRetry?: () => unknown;
  /** Given when the view is filtered: a way back to the unfiltered list. */
  onClearFilters?: () => void;
}) {
  const refused = hasInputIssues(error);
  const badFilters = refused && onClearFilters !== undefined;
  const dueAt = useAutoRetry(what, onRetry, !refused);
  return (
    <div role="alert" className="rounded-lg border border-bad/40 bg-surface p-4">
      <p className="font-medium text-bad">
        {badFilters ? "These filters cannot be shown." : `${what} could not be loaded.`}
      </p>
      <p className="mt-1 text-muted">
        {/* No tRPC error shape: the request never got an answer from the server. */}
        {error.data === undefined
          ? `The server did not answer (${error.message}).`
          : describeApiError(error)}
      </p>
      <div className="mt-2 flex flex-wrap items-baseline gap-4">
        {onRetry && !refused && (
          <>
            <button type="button" onClick={() => onRetry()} className="text-accent hover:underline">
              Try again
            </button>
            <RetryCountdown dueAt={dueAt} />
          </>
        )}
        {onClearFilters && (
          <button type="button" onClick={onClearFilters} className="text-accent hover:underline">
            Clear filters
          </button>
        )}
      </div>
    </div>
  );
}
