import { TONE_DOT, taskTone } from "@/lib/states";

/**
 * A state with its colour dot, and where it is being taken when that is not
 * where it would go by itself: "RUNNING → KILLED" while a stop is under way.
 * A crash-looping instance (`failing`) reads FAILING in red, its state beside it.
 */
export function StateBadge({
  state,
  goal,
  failing = false,
  testId = "state",
}: {
  state: string;
  goal?: string | undefined;
  failing?: boolean;
  testId?: string;
}) {
  const heading = (goal === "KILLED" || goal === "DELETED") && goal !== state;
  return (
    <span
      className="inline-flex items-center gap-1.5 whitespace-nowrap"
      data-testid={testId}
      data-state={state}
      data-failing={failing || undefined}
    >
      <span
        aria-hidden
        className={`size-2 shrink-0 rounded-full ${TONE_DOT[failing ? "bad" : taskTone(state)]}`}
      />
      {failing ? (
        <>
          FAILING <span className="text-xs text-muted">({state}, restart backoff)</span>
        </>
      ) : (
        state
      )}
      {heading && (
        <span className="text-xs text-muted" title={`goal state: ${goal}`}>
          → {goal}
        </span>
      )}
    </span>
  );
}
