/** What the launcher tells its reaper (reaper.ts), one JSON object per line. */
import type { ProcessRef } from "@peloton/storage/processes";

/** `postgres`: the embedded postmaster. `console`: next-server, signalled as a process group. */
export type ChildKind = "postgres" | "console";

export interface WatchedChild extends ProcessRef {
  kind: ChildKind;
}

export type ReaperMessage = { watch: WatchedChild } | { forget: number };

/** next-server: SIGTERM to its process group, SIGKILL if it is still there after 5 s. */
export const STOP_CONSOLE: readonly (readonly [NodeJS.Signals, number])[] = [
  ["SIGTERM", 5_000],
  ["SIGKILL", 3_000],
];
