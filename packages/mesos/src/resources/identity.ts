/**
 * What makes two Mesos resources "the same kind" for arithmetic: the name,
 * the reservation role (the last of the refined `reservations` stack, else the
 * deprecated `role`), the persistent volume id, and revocability.
 * `allocation_info` is deliberately not part of it: it says who holds the
 * resource, not what it is.
 */
import type { Resource } from "../proto/messages.ts";

export const UNRESERVED = "*";

export function reservationRole(r: Resource): string {
  const stack = r.reservations;
  if (stack !== undefined && stack.length > 0) return stack[stack.length - 1]?.role ?? UNRESERVED;
  if (r.reservation?.role !== undefined) return r.reservation.role;
  return r.role ?? UNRESERVED;
}

export function persistenceId(r: Resource): string | undefined {
  return r.disk?.persistence?.id;
}

export function resourceKey(r: Resource): string {
  const volume = persistenceId(r) ?? "";
  return `${r.name}|${reservationRole(r)}|${volume}|${r.revocable !== undefined ? "r" : ""}`;
}

/** The resource with its reservation and volume stripped: what it was carved from. */
export function unreservedForm(r: Resource): Resource {
  const {
    reservations: _s,
    reservation: _r,
    role: _role,
    disk: _d,
    allocation_info: _a,
    ...rest
  } = r;
  return { ...rest, role: UNRESERVED };
}

/** The resource without its persistence: the reserved disk a volume is carved from. */
export function withoutVolume(r: Resource): Resource {
  const { disk: _d, allocation_info: _a, ...rest } = r;
  return rest;
}
