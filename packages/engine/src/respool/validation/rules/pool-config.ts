import { isResourceKind, type ResourceKind } from "../../../resources/kinds.ts";
import type { ResourceEntryInput } from "../../config.ts";
import { resourceField } from "../context.ts";
import type { PoolValidationError } from "../errors.ts";

/** Rule 1, first half: users never create, update or delete the root. */
export function checkNotRoot(path: string): PoolValidationError[] {
  return path === "/" ? [{ code: "ROOT_IMMUTABLE", pool: path, values: {} }] : [];
}

/**
 * Rule 1, second half (Peloton's `ValidateResourcePool`): each kind is known and
 * listed once; reservation and share are not negative; the limit is at least
 * the reservation. Every entry is checked, so all its problems come back.
 */
export function checkResourceEntries(
  pool: string,
  entries: readonly ResourceEntryInput[],
): PoolValidationError[] {
  const errors: PoolValidationError[] = [];
  const firstIndex = new Map<ResourceKind, number>();
  entries.forEach((entry, i) => {
    const kind = entry.kind;
    if (!isResourceKind(kind)) {
      errors.push({ code: "UNKNOWN_KIND", pool, field: `resources[${i}].kind`, values: { kind } });
      return;
    }
    const first = firstIndex.get(kind);
    if (first !== undefined) {
      errors.push({
        code: "DUPLICATE_KIND",
        pool,
        kind,
        field: `resources[${i}].kind`,
        values: { first, again: i },
      });
      return;
    }
    firstIndex.set(kind, i);
    errors.push(...checkNumbers(pool, kind, entry));
  });
  return errors;
}

function checkNumbers(
  pool: string,
  kind: ResourceKind,
  e: ResourceEntryInput,
): PoolValidationError[] {
  const reservation = e.reservation ?? 0;
  const limit = e.limit ?? 0;
  const share = e.share ?? 0;
  const errors: PoolValidationError[] = [];
  for (const [name, value] of [
    ["reservation", reservation],
    ["limit", limit],
    ["share", share],
  ] as const) {
    if (!Number.isFinite(value)) {
      errors.push({
        code: "NOT_A_NUMBER",
        pool,
        kind,
        field: resourceField(kind, name),
        values: { value },
      });
    }
  }
  if (errors.length > 0) return errors;
  if (reservation < 0) {
    errors.push({
      code: "NEGATIVE_RESERVATION",
      pool,
      kind,
      field: resourceField(kind, "reservation"),
      values: { reservation },
    });
  }
  if (share < 0) {
    errors.push({
      code: "NEGATIVE_SHARE",
      pool,
      kind,
      field: resourceField(kind, "share"),
      values: { share },
    });
  }
  if (limit < reservation) {
    errors.push({
      code: "RESERVATION_EXCEEDS_LIMIT",
      pool,
      kind,
      field: resourceField(kind, "reservation"),
      values: { reservation, limit },
    });
  }
  return errors;
}
