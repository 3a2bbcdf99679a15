/**
 * The tree the validation tests judge changes against:
 *
 *   /            capacity cpu 100, memory 1000, disk 1000, gpu 4
 *   ├─ infra     cpu 50/80   (reservation/limit)
 *   │  ├─ batch  cpu 20/50
 *   │  └─ web    cpu 0/30
 *   └─ research  cpu 10/100
 *
 * Other kinds: reservation 0, limit 0.
 */
import { expect } from "vitest";
import {
  describeValidationError,
  type PoolConfigInput,
  type PoolDeleteFacts,
  type PoolValidationCode,
  type PoolValidationError,
  type ResourceEntryInput,
  validateCreate,
  validateDelete,
  validateMove,
  validateUpdate,
} from "../../src/index.ts";
import { pool, treeOf } from "./builders.ts";

const zeroLimits = { gpu: 0, memory: 0, disk: 0 };
export const snapshot = {
  tree: treeOf([
    pool("/infra")
      .reserve({ cpu: 50 })
      .limit({ cpu: 80, ...zeroLimits }),
    pool("/infra/batch")
      .reserve({ cpu: 20 })
      .limit({ cpu: 50, ...zeroLimits }),
    pool("/infra/web").limit({ cpu: 30, ...zeroLimits }),
    pool("/research")
      .reserve({ cpu: 10 })
      .limit({ cpu: 100, ...zeroLimits }),
  ]),
  capacity: { cpu: 100, memory: 1000, disk: 1000, gpu: 4 },
};

export const cpu = (reservation: number, limit: number, share = 1): ResourceEntryInput => ({
  kind: "cpu",
  reservation,
  limit,
  share,
});

export const config = (
  name: string,
  resources: ResourceEntryInput[],
  more: Partial<PoolConfigInput> = {},
): PoolConfigInput => ({ name, resources, ...more });

export interface ValidationCase {
  name: string;
  run: () => PoolValidationError[];
  codes: PoolValidationCode[];
  /** The first error's sentence, when the case pins it. */
  says?: string;
}

export const create = (path: string, c: PoolConfigInput) => () =>
  validateCreate(snapshot, { path, config: c });
export const update = (path: string, c: PoolConfigInput) => () =>
  validateUpdate(snapshot, { path, config: c });
export const move = (path: string, newParentPath: string) => () =>
  validateMove(snapshot, { path, newParentPath });
export const remove =
  (path: string, facts: PoolDeleteFacts = {}) =>
  () =>
    validateDelete(snapshot, { path, facts });

/** The case's codes, in order, and its sentence; every error worded, starting with its pool. */
export function checkCase(c: ValidationCase): void {
  const errors = c.run();
  expect(errors.map((e) => e.code)).toEqual(c.codes);
  if (c.says) expect(describeValidationError(errors[0]!)).toBe(c.says);
  for (const e of errors) {
    const text = describeValidationError(e);
    if (e.code !== "ROOT_IMMUTABLE" && e.code !== "INVALID_PATH")
      expect(text.startsWith(e.pool)).toBe(true);
  }
}
