import type { PoolChange } from "../context.ts";
import type { PoolValidationError } from "../errors.ts";

/** Rule 6 (Peloton's `ValidateControllerLimit`): `controllerLimit.maxPercent` ≤ 100. */
export function checkControllerLimit(change: PoolChange): PoolValidationError[] {
  const maxPercent = change.config?.controllerLimitMaxPercent;
  if (maxPercent == null || maxPercent <= 100) return [];
  return [
    {
      code: "CONTROLLER_LIMIT_OVER_100",
      pool: change.path,
      field: "controllerLimit.maxPercent",
      values: { maxPercent },
    },
  ];
}
