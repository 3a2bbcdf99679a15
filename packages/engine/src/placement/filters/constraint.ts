import type { Constraint } from "../../constraints/constraint.ts";
import { constraintAllows, type LabelCounts } from "../../constraints/evaluate.ts";

/**
 * The task's constraint evaluated on the host (peloton-semantics.md §3): a
 * MISMATCH rejects; MATCH and NOT_APPLICABLE (nothing in it concerned this
 * host) pass. No constraint: every host passes.
 */
export function constraintFilter(
  constraint: Constraint | undefined,
  counts: LabelCounts,
): "CONSTRAINT_MISMATCH" | null {
  return constraintAllows(constraint, counts) ? null : "CONSTRAINT_MISMATCH";
}
