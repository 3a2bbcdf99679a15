/**
 * How the console writes a point in time: one absolute format everywhere
 * ("2026-11-25 12:04:52 +00:00", in the browser's zone with its offset),
 * and relative words that say how long ago ("42 seconds ago").
 */
import { format, formatDistanceStrict } from "date-fns";

export const ABSOLUTE_FORMAT = "yyyy-MM-dd HH:mm:ss xxx";

export function formatAbsolute(at: Date | number): string {
  return format(at, ABSOLUTE_FORMAT);
}

/** "42 seconds ago", "3 minutes ago"; a time a little ahead of `now` (clock skew) reads as now. */
export function formatRelative(at: Date, now: number): string {
  return formatDistanceStrict(at, Math.max(now, at.getTime()), { addSuffix: true });
}
