/**
 * Reading the resource manager's message on a waiting task: "3rd in pool
 * /a/b's pending queue: <why>" while it waits for admission, other words
 * once admitted (no host fits, never fits).
 */

/** The place in line, the pool, the queue and the why. */
export const QUEUE_PLACE = /^(\d+(?:st|nd|rd|th)) in pool (\S+)'s ([\w-]+) queue: (.*)$/s;

/** Why a task waits, without its place in line (that is one task's, not its job's). */
export function waitingWhy(message: string | null): string {
  if (message === null) return "not yet looked at by the resource manager";
  return QUEUE_PLACE.exec(message)?.[4] ?? message;
}
