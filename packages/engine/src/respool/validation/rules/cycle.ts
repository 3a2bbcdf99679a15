import { isAncestorPath } from "../../path.ts";
import type { PoolChange } from "../context.ts";
import type { PoolValidationError } from "../errors.ts";

/**
 * Rule 2 (Peloton's `ValidateCycle`): a pool is not its own parent. When a pool
 * moves, its new parent must not sit below it either, or the subtree would
 * detach from the root.
 */
export function checkCycle(change: PoolChange): PoolValidationError[] {
  const { path, parentPath } = change;
  if (parentPath === path)
    return [{ code: "PARENT_IS_SELF", pool: path, values: { parent: parentPath } }];
  if (isAncestorPath(path, parentPath)) {
    return [{ code: "PARENT_IS_DESCENDANT", pool: path, values: { parent: parentPath } }];
  }
  return [];
}
