import { TONE_DOT, taskTone } from "@/lib/states";

/**
 * A state with its colour dot, and where it is being taken when that is not
 * where it would go by itself: "RUNNING → KILLED" while a stop is under way.
 */
export function StateBadge({
  state,
  goal,
  testId = "state",
}: {
  state: string;
  goal?: string | undefined;
  testId?: string;
}) {
  const heading = (goal === "KILLED" || goal === "DELETED") && goal !== state;
  return (
    <span
      className="inline-flex items-center gap-1.5 whitespace-nowrap"
      data-testid={testId}
      data-state={state}
    >
      <span aria-hidden className={`size-2 shrink-0 rounded-full ${TONE_DOT[taskTone(state)]}`} />
      {state}
      {heading && (
        <span className="text-xs text-muted" title={`goal state: ${goal}`}>
          → {goal}
        </span>
      )}
    </span>
  );
}
