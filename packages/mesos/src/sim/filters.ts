/**
 * Offer refusal filters (the allocator's "refused resources" filters): after
 * a DECLINE, or the unused part of an ACCEPT, the framework is not offered
 * the same resources of that agent again for `refuse_seconds`. Like Mesos,
 * a filter only blocks offers that are a subset of what was refused: when
 * more resources free up on the agent, it is offered again at once.
 */
import type { Filters } from "../proto/messages.ts";
import type { ResourceBag } from "../resources/bag.ts";

/** Mesos' Filters default. */
export const DEFAULT_REFUSE_SECONDS = 5;
/** Mesos caps refusals at a year. */
const MAX_REFUSE_SECONDS = 365 * 24 * 3600;

export interface RefusalFilter {
  agentId: string;
  role: string;
  resources: ResourceBag;
  /** ms since the epoch. */
  expiresAt: number;
}

/** How long the filter lasts in ms; 0 = no filter. Negative or non-numbers fall back to 5 s. */
export function refuseMillis(filters: Filters | undefined): number {
  const s = filters?.refuse_seconds;
  const seconds =
    typeof s === "number" && Number.isFinite(s) && s >= 0 ? s : DEFAULT_REFUSE_SECONDS;
  return Math.min(seconds, MAX_REFUSE_SECONDS) * 1000;
}

/** True when an offer of `candidate` from `agentId` for `role` is still refused. */
export function isRefused(
  filters: readonly RefusalFilter[],
  agentId: string,
  role: string,
  candidate: ResourceBag,
  now: number,
): boolean {
  return filters.some(
    (f) =>
      f.agentId === agentId &&
      f.role === role &&
      f.expiresAt > now &&
      f.resources.contains(candidate),
  );
}

/** Drops expired filters; returns the earliest expiry left (or undefined). */
export function pruneFilters(filters: RefusalFilter[], now: number): number | undefined {
  let next: number | undefined;
  for (let i = filters.length - 1; i >= 0; i--) {
    const f = filters[i]!;
    if (f.expiresAt <= now) filters.splice(i, 1);
    else next = next === undefined ? f.expiresAt : Math.min(next, f.expiresAt);
  }
  return next;
}
