import { describeApiError, hasInputIssues } from "@/lib/api-errors";

/**
 * A list or page part that could not be loaded: what, the server's words, and
 * what to do next. A request the API refused for its input (with filters: a
 * filter in the URL that is not valid) names the field, and trying again
 * would not help; clearing the filters would. Anything else can be retried.
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
  onRetry?: () => void;
  /** Given when the view is filtered: a way back to the unfiltered list. */
  onClearFilters?: () => void;
}) {
  const refused = hasInputIssues(error);
  const badFilters = refused && onClearFilters !== undefined;
  return (
    <div role="alert" className="rounded-lg border border-bad/40 bg-surface p-4">
      <p className="font-medium text-bad">
        {badFilters ? "These filters cannot be shown." : `${what} could not be loaded.`}
      </p>
      <p className="mt-1 text-muted">{describeApiError(error)}</p>
      <div className="mt-2 flex gap-4">
        {onRetry && !refused && (
          <button type="button" onClick={onRetry} className="text-accent hover:underline">
            Try again
          </button>
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
