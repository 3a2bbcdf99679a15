import type { PoolChange } from "../context.ts";
import type { PoolValidationError } from "../errors.ts";

/**
 * Rule 4 (Peloton's `ValidateSiblings`): the name is unique among the parent's
 * children. The pool itself does not count, so an update may keep its name.
 */
export function checkUniqueName(change: PoolChange): PoolValidationError[] {
  const parent = change.parent;
  if (!parent) return [];
  const clash = parent.children.some((c) => c !== change.existing && c.name === change.name);
  if (!clash) return [];
  return [
    {
      code: "NAME_NOT_UNIQUE",
      pool: change.path,
      field: "name",
      values: { name: change.name, parent: parent.path },
    },
  ];
}
