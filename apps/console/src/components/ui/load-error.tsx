/** A list or page part that could not be loaded: what, the server's words, and a retry. */
export function LoadError({
  what,
  error,
  onRetry,
}: {
  /** "The hosts", "The instances". */
  what: string;
  error: { message: string };
  onRetry?: () => void;
}) {
  return (
    <div role="alert" className="rounded-lg border border-bad/40 bg-surface p-4">
      <p className="font-medium text-bad">{what} could not be loaded.</p>
      <p className="mt-1 text-muted">{error.message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 text-accent hover:underline">
          Try again
        </button>
      )}
    </div>
  );
}
