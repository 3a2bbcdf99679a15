/**
 * A dry run of a pool change: the rules it breaks, or how every pool's
 * entitlement would move (which pools gain and lose, and by how much).
 */
import {
  type EntitlementResult,
  EPSILON,
  type PoolValidationError,
  RESOURCE_KINDS,
  type Resources,
} from "@peloton/engine";
import { type ChangeFacts, judgeChange, type PoolChangeRequest, recordsAfter } from "./change.ts";
import { calculateSnapshot, numbersOf } from "./entitlements.ts";
import { type PoolSnapshot, withRecords } from "./snapshot.ts";

/** One pool's entitlement before and after; null where the pool does not exist. */
export interface EntitlementMove {
  readonly path: string;
  readonly before: Resources | null;
  readonly after: Resources | null;
}

export interface PoolPreview {
  readonly errors: PoolValidationError[];
  /** Pools whose entitlement changes, in tree order (a deleted pool last); empty when `errors` is not. */
  readonly moves: EntitlementMove[];
}

/** The id a pool that does not exist yet has in a preview. */
const PROPOSED_ID = "00000000-0000-0000-0000-000000000000";

export function previewChange(
  snapshot: PoolSnapshot,
  request: PoolChangeRequest,
  now: Date,
  facts: ChangeFacts = {},
): PoolPreview {
  const errors = judgeChange(snapshot, request, facts);
  if (errors.length > 0) return { errors, moves: [] };
  const after = withRecords(
    snapshot,
    recordsAfter(snapshot, request, { id: PROPOSED_ID, at: now, actor: "preview" }),
  );
  return { errors, moves: entitlementMoves(calculateSnapshot(snapshot), calculateSnapshot(after)) };
}

/** Pools whose entitlement differs by more than ε in any kind, or that appear or disappear. */
export function entitlementMoves(
  before: EntitlementResult,
  after: EntitlementResult,
): EntitlementMove[] {
  const moves: EntitlementMove[] = [];
  const known = (r: EntitlementResult, path: string) => r.pools.indexOf.has(path);
  // Index 0 is the root: its entitlement is the cluster capacity, which no pool change moves.
  for (const path of after.pools.paths.slice(1)) {
    const a = numbersOf(after, path).entitlement;
    const b = known(before, path) ? numbersOf(before, path).entitlement : null;
    if (!b || RESOURCE_KINDS.some((k) => Math.abs(a[k] - b[k]) > EPSILON))
      moves.push({ path, before: b, after: a });
  }
  for (const path of before.pools.paths.slice(1)) {
    if (!known(after, path))
      moves.push({ path, before: numbersOf(before, path).entitlement, after: null });
  }
  return moves;
}
