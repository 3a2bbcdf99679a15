/**
 * How the console writes a point in time: one absolute format everywhere
 * ("2026-11-25 12:04:52 +00:00", in the browser's zone with its offset),
 * and relative words that say how long ago ("42 seconds ago").
 */
import { format, formatDistanceStrict, isSameDay } from "date-fns";

export const ABSOLUTE_FORMAT = "yyyy-MM-dd HH:mm:ss xxx";

export function formatAbsolute(at: Date | number): string {
  return format(at, ABSOLUTE_FORMAT);
}

/**
 * A moment the reader lived through a little while ago (since when the view
 * has been offline): its time of day alone while it is still the same day on
 * the reader's clock, where the date and zone would only be noise in a small
 * indicator; once the day has changed (a tab open overnight) the time alone
 * would be wrong by a day, so the shared absolute format. Before the page
 * knows its clock (`now` null) it cannot tell, so the absolute format too.
 */
export function formatSinceToday(at: Date | number, now: number | null): string {
  return now !== null && isSameDay(at, now) ? format(at, "HH:mm:ss") : formatAbsolute(at);
}

/**
 * A span of time at minutes ("2026-11-25 12:00 – 13:00 +00:00"): the end's
 * date only when it is another day, the zone once, as the absolute format
 * gives it.
 */
export function formatRange(from: Date | number, to: Date | number): string {
  const end = format(to, isSameDay(from, to) ? "HH:mm" : "yyyy-MM-dd HH:mm");
  return `${format(from, "yyyy-MM-dd HH:mm")} – ${end} ${format(to, "xxx")}`;
}

/** "42 seconds ago", "3 minutes ago"; a time a little ahead of `now` (clock skew) reads as now. */
export function formatRelative(at: Date, now: number): string {
  return formatDistanceStrict(at, Math.max(now, at.getTime()), { addSuffix: true });
}
