import { RESOURCE_KINDS } from "../../../resources/kinds.ts";
import { amountLessOrEqual } from "../../../resources/resources.ts";
import { type PoolChange, parentSetting, resourceField } from "../context.ts";
import type { PoolValidationError } from "../errors.ts";

/**
 * Rule 5 (Peloton's `ValidateChildrenReservations`): per kind, the siblings'
 * reservations plus this pool's fit in the parent's reservation; the root's is
 * the cluster capacity. On update the pool's stored reservation is replaced by
 * the new one, as Peloton subtracts it. Sums are compared with ε slack so that
 * 0.1 + 0.2 fits in 0.3 (Peloton compares exactly).
 */
export function checkReservationsFitParent(change: PoolChange): PoolValidationError[] {
  const parent = change.parent;
  if (!parent) return [];
  const errors: PoolValidationError[] = [];
  for (const kind of RESOURCE_KINDS) {
    let siblingsReservation = 0;
    for (const c of parent.children) {
      if (c !== change.existing && c.record)
        siblingsReservation += c.record.resources[kind].reservation;
    }
    const reservation = change.resources[kind].reservation;
    // A broken number is rule 1's error; comparing it would only echo it.
    if (!Number.isFinite(reservation)) continue;
    const parentReservation = parentSetting(change, parent, kind).reservation;
    if (amountLessOrEqual(siblingsReservation + reservation, parentReservation)) continue;
    errors.push({
      code: "CHILDREN_RESERVATION_EXCEEDS_PARENT",
      pool: change.path,
      kind,
      field: resourceField(kind, "reservation"),
      values: {
        reservation,
        parentReservation,
        siblingsReservation,
        shortfall: siblingsReservation + reservation - parentReservation,
        parent: parent.path,
      },
    });
  }
  return errors;
}
