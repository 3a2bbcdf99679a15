/**
 * "Did it come back?" for one preemption, in a few words and a tone: the
 * first question on-call asks after "why was it killed".
 */
import { isFinishedTaskState, isStoppingTaskState } from "@peloton/api/schemas";
import { formatElapsed } from "@peloton/engine/format";
import type { PreemptionRow } from "@/lib/api-types";
import type { Tone } from "@/lib/states";

export interface CameBack {
  tone: Tone;
  /** The answer in a word ("back", "ended", ...). */
  word: string;
  /** What qualifies it (how long after, which state), when anything does. */
  after: string | null;
  /** Two or three words for a table cell: the word, then what qualifies it. */
  label: string;
  /** One sentence for the details. */
  detail: string;
}

function answer(tone: Tone, word: string, after: string | null, detail: string): CameBack {
  return { tone, word, after, label: after ? `${word} · ${after}` : word, detail };
}

export function cameBackOf(p: PreemptionRow): CameBack {
  if (p.rescheduled) {
    const after = formatElapsed(p.rescheduled.at.getTime() - p.at.getTime());
    return answer(
      "ok",
      "back",
      after,
      `It ran again ${after} later (run ${p.rescheduled.runId}${p.taskNow ? `, now ${p.taskNow.state}` : ""}).`,
    );
  }
  const now = p.taskNow;
  if (!now) {
    return answer("idle", "task deleted", null, "Its task no longer exists.");
  }
  if (now.runId === p.victim.runId && isStoppingTaskState(now.state)) {
    return answer(
      "warn",
      "being killed",
      null,
      `The kill was sent; the run is ${now.state} until the cluster confirms it.`,
    );
  }
  if (now.runId === p.victim.runId && isFinishedTaskState(now.state)) {
    return answer(
      "bad",
      "ended",
      now.state,
      `Run ${now.runId} ended ${now.state} and no new run has reached RUNNING: its job's type and restart policy decide whether one starts.`,
    );
  }
  return answer(
    "warn",
    "waiting",
    now.state,
    `Not running again yet: run ${now.runId} is ${now.state}.`,
  );
}
