import { RESOURCE_KINDS } from "../../../resources/kinds.ts";
import { type PoolChange, parentSetting, resourceField } from "../context.ts";
import type { PoolValidationError } from "../errors.ts";

/** Rule 3, first part: the parent exists. Later rules need it, so callers stop here when it fails. */
export function checkParentExists(change: PoolChange): PoolValidationError[] {
  if (change.parent) return [];
  return [{ code: "PARENT_NOT_FOUND", pool: change.path, values: { parent: change.parentPath } }];
}

/**
 * Rule 3, second part: on update the parent does not change (moving is its own
 * operation, Peloton's "parent override not allowed").
 */
export function checkParentUnchanged(change: PoolChange): PoolValidationError[] {
  const requested = change.config?.parent;
  if (change.operation !== "update" || requested == null || requested === change.parentPath)
    return [];
  return [
    {
      code: "PARENT_CHANGED",
      pool: change.path,
      field: "parent",
      values: { parent: change.parentPath, requested },
    },
  ];
}

/**
 * Rule 3, last part (Peloton's `ValidateParent`): per kind, the child's limit is
 * at most the parent's. Every pool carries all four kinds (defaults appended as
 * Peloton does), so "the parent has every kind the child has" always holds.
 */
export function checkLimitWithinParent(change: PoolChange): PoolValidationError[] {
  const parent = change.parent;
  if (!parent) return [];
  const errors: PoolValidationError[] = [];
  for (const kind of RESOURCE_KINDS) {
    const limit = change.resources[kind].limit;
    const parentLimit = parentSetting(change, parent, kind).limit;
    if (Number.isFinite(limit) && limit > parentLimit) {
      errors.push({
        code: "LIMIT_EXCEEDS_PARENT_LIMIT",
        pool: change.path,
        kind,
        field: resourceField(kind, "limit"),
        values: { limit, parentLimit, parent: parent.path },
      });
    }
  }
  return errors;
}
