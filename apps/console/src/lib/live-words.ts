/** The live indicator's words: what the stream's state means for the data on screen. */
import { formatDistanceStrict } from "date-fns";
import type { LiveState } from "./live-connection";
import { formatSinceToday } from "./time";

export type LiveTone = "ok" | "warn" | "bad";

/**
 * What the indicator says. `now` is null until the page has mounted (the
 * server's clock and the browser's differ), and the stream is never anything
 * but connecting before that, so the first paint is the same on both sides.
 */
export function describeLive(
  live: LiveState,
  { updatedAt, failing, now }: { updatedAt: number; failing: boolean; now: number | null },
): { text: string; tone: LiveTone } {
  const ago = !updatedAt
    ? "never"
    : now === null
      ? "just now"
      : formatDistanceStrict(updatedAt, Math.max(now, updatedAt), { addSuffix: true });
  if (live.status === "offline") {
    const since = live.offlineSince ? ` since ${formatSinceToday(live.offlineSince, now)}` : "";
    if (live.reason === "database")
      return { text: `Not live${since}: the server cannot reach its database`, tone: "bad" };
    const wait =
      live.nextAttemptAt !== null && now !== null
        ? Math.max(1, Math.ceil((live.nextAttemptAt - now) / 1000))
        : null;
    return {
      text: `Offline${since} · ${wait === null ? "reconnecting…" : `reconnecting in ${wait} s`}`,
      tone: "bad",
    };
  }
  if (failing) return { text: `Not current: loading failed; data from ${ago}`, tone: "bad" };
  if (live.status === "connecting")
    return {
      text: live.offlineSince
        ? `Reconnecting… offline since ${formatSinceToday(live.offlineSince, now)}`
        : `Connecting to live updates… data from ${ago}`,
      tone: "warn",
    };
  return { text: updatedAt ? `Live · updated ${ago}` : "Live", tone: "ok" };
}
