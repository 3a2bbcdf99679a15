import { RESOURCE_KINDS } from "../../../resources/kinds.ts";
import { amountLessOrEqual } from "../../../resources/resources.ts";
import { type PoolChange, resourceField } from "../context.ts";
import type { PoolValidationError } from "../errors.ts";

/** How many children a sentence names before it says "and N more". */
const NAMED_CHILDREN = 3;

/**
 * Rules 3 and 5 seen from the parent's side, on update: the pool's new
 * reservation still holds its children's reservations, and its new limit is
 * still at least each child's limit. Peloton checks these only from the
 * child's side, so a parent lowered below its children leaves every child
 * uneditable (each edit is judged against a parent already too small).
 */
export function checkChildrenFit(change: PoolChange): PoolValidationError[] {
  const node = change.existing;
  if (change.operation !== "update" || !node || node.children.length === 0) return [];
  const errors: PoolValidationError[] = [];
  for (const kind of RESOURCE_KINDS) {
    const { reservation, limit } = change.resources[kind];
    // A broken number is rule 1's error; comparing it would only echo it.
    if (!Number.isFinite(reservation) || !Number.isFinite(limit)) continue;
    const children = node.children.flatMap((c) =>
      c.record ? [{ path: c.path, reservation: c.record.resources[kind].reservation }] : [],
    );
    const childrenReservation = children.reduce((sum, c) => sum + c.reservation, 0);
    if (!amountLessOrEqual(childrenReservation, reservation)) {
      const named = children.filter((c) => c.reservation > 0);
      errors.push({
        code: "RESERVATION_BELOW_CHILDREN",
        pool: change.path,
        kind,
        field: resourceField(kind, "reservation"),
        values: {
          reservation,
          childrenReservation,
          children: named.slice(0, NAMED_CHILDREN),
          moreChildren: Math.max(0, named.length - NAMED_CHILDREN),
        },
      });
    }
    const over = node.children.flatMap((c) =>
      c.record && c.record.resources[kind].limit > limit
        ? [{ path: c.path, limit: c.record.resources[kind].limit }]
        : [],
    );
    if (over.length > 0) {
      errors.push({
        code: "LIMIT_BELOW_CHILD_LIMIT",
        pool: change.path,
        kind,
        field: resourceField(kind, "limit"),
        values: {
          limit,
          children: over.slice(0, NAMED_CHILDREN),
          moreChildren: Math.max(0, over.length - NAMED_CHILDREN),
        },
      });
    }
  }
  return errors;
}
