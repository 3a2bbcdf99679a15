import type { ResourceKind } from "../../resources/kinds.ts";
import type { Resources } from "../../resources/resources.ts";
import type { PathProblem } from "../path.ts";

/**
 * A broken pool rule, as data: the code, the pool's path, the kind and the
 * configuration field when there is one, and the numbers involved. Turned into
 * words only by `describeValidationError` (STYLE.md: errors are values).
 */
type E<C extends string, V, Extra = object> = {
  readonly code: C;
  readonly pool: string;
  readonly values: V;
} & Extra;

type PerKind = { readonly kind: ResourceKind; readonly field: string };
type OnField = { readonly field: string };

export type PoolValidationError =
  // The command line: `respool create <path> <file>` (peloton-semantics.md §2).
  | E<"INVALID_PATH", PathProblem>
  | E<"NAME_MISMATCH_PATH", { name: string; expected: string }, OnField>
  | E<"PARENT_IN_CONFIG", { parent: string }, OnField>
  | E<"POOL_NOT_FOUND", Record<string, never>>
  // Rule 1: not the root; known kinds, once each; no negatives; limit ≥ reservation.
  | E<"ROOT_IMMUTABLE", Record<string, never>>
  | E<"UNKNOWN_KIND", { kind: string }, OnField>
  | E<"DUPLICATE_KIND", { first: number; again: number }, PerKind>
  | E<"NOT_A_NUMBER", { value: number }, PerKind>
  | E<"NEGATIVE_RESERVATION", { reservation: number }, PerKind>
  | E<"NEGATIVE_SHARE", { share: number }, PerKind>
  | E<"RESERVATION_EXCEEDS_LIMIT", { reservation: number; limit: number }, PerKind>
  // Rule 2: no cycles.
  | E<"PARENT_IS_SELF", { parent: string }>
  | E<"PARENT_IS_DESCENDANT", { parent: string }>
  // Rule 3: the parent exists and stays; the parent's limit bounds the child's.
  | E<"PARENT_NOT_FOUND", { parent: string }>
  | E<"PARENT_CHANGED", { parent: string; requested: string }, OnField>
  | E<"LIMIT_EXCEEDS_PARENT_LIMIT", { limit: number; parentLimit: number; parent: string }, PerKind>
  // Rule 4: unique name among siblings.
  | E<"NAME_NOT_UNIQUE", { name: string; parent: string }, OnField>
  // Rule 5: the children's reservations fit in the parent's.
  | E<
      "CHILDREN_RESERVATION_EXCEEDS_PARENT",
      {
        reservation: number;
        parentReservation: number;
        siblingsReservation: number;
        /** siblings + reservation − the parent's: how much too much (> 0). */
        shortfall: number;
        parent: string;
      },
      PerKind
    >
  // Rules 3 and 5 from the parent's side (update): it still holds its children.
  | E<
      "RESERVATION_BELOW_CHILDREN",
      {
        reservation: number;
        childrenReservation: number;
        /** The children that reserve some, first few only; `moreChildren` counts the rest. */
        children: readonly { path: string; reservation: number }[];
        moreChildren: number;
      },
      PerKind
    >
  | E<
      "LIMIT_BELOW_CHILD_LIMIT",
      {
        limit: number;
        children: readonly { path: string; limit: number }[];
        moreChildren: number;
      },
      PerKind
    >
  // Jobs run in leaves: a pool with jobs gets no child (create, move).
  | E<"PARENT_HAS_JOBS", { parent: string; jobs: number; names: readonly string[] }>
  // Rule 6.
  | E<"CONTROLLER_LIMIT_OVER_100", { maxPercent: number }, OnField>
  // Delete: only an idle leaf.
  | E<"NOT_LEAF", { children: number }>
  | E<"BUSY", { jobs: number; allocation: Resources; demand: Resources }>;

export type PoolValidationCode = PoolValidationError["code"];

/** Narrows an error list to one code, for callers and tests. */
export function errorsWithCode<C extends PoolValidationCode>(
  errors: readonly PoolValidationError[],
  code: C,
): Extract<PoolValidationError, { code: C }>[] {
  return errors.filter((e): e is Extract<PoolValidationError, { code: C }> => e.code === code);
}
