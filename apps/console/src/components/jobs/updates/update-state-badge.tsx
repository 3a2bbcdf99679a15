import { TONE_DOT, updateTone } from "@/lib/states";
import type { UpdateView } from "./update-types";

/** An update's state with its colour dot; a pause says what it holds (forward or back). */
export function UpdateStateBadge({
  update,
  testId = "update-state",
}: {
  update: Pick<UpdateView, "state" | "previousState">;
  testId?: string;
}) {
  const held =
    update.state === "PAUSED" && update.previousState && update.previousState !== "INITIALIZED"
      ? update.previousState
      : null;
  return (
    <span
      className="inline-flex items-center gap-1.5 whitespace-nowrap"
      data-testid={testId}
      data-state={update.state}
    >
      <span
        aria-hidden
        className={`size-2 shrink-0 rounded-full ${TONE_DOT[updateTone(update.state)]}`}
      />
      {update.state}
      {held && <span className="text-xs text-muted">(was {held})</span>}
    </span>
  );
}
