import { EXCLUSIVE_ATTRIBUTE } from "./attributes.ts";
import type { Constraint, ConstraintResult, Label, LabelConstraintKind } from "./constraint.ts";

/**
 * What a constraint is evaluated against: how many times a label is present.
 * HOST: the host carries the attribute `key` with `value` (1 or 0); TASK: how
 * many tasks with that label already run on the host (peloton-semantics.md §3).
 */
export interface LabelCounts {
  count(kind: LabelConstraintKind, label: Label): number;
}

/**
 * Peloton's evaluator (peloton-semantics.md §3), one rule per constraint type:
 * - LABEL: the count compared with `requirement` by the condition → MATCH or MISMATCH;
 * - AND: any MISMATCH → MISMATCH, else MATCH if any child matched, else NOT_APPLICABLE;
 * - OR: any MATCH → MATCH, else MISMATCH if any child mismatched, else NOT_APPLICABLE;
 * - NOT (ours): MATCH and MISMATCH swap; NOT_APPLICABLE stays.
 * An empty AND or OR is NOT_APPLICABLE, so it constrains nothing.
 */
export function evaluateConstraint(c: Constraint, counts: LabelCounts): ConstraintResult {
  switch (c.type) {
    case "LABEL_CONSTRAINT": {
      const n = counts.count(c.kind, c.label);
      const r = c.requirement;
      const match = c.condition === "LESS_THAN" ? n < r : c.condition === "EQUAL" ? n === r : n > r;
      return match ? "MATCH" : "MISMATCH";
    }
    case "AND_CONSTRAINT": {
      let result: ConstraintResult = "NOT_APPLICABLE";
      for (const child of c.constraints) {
        const r = evaluateConstraint(child, counts);
        if (r === "MISMATCH") return "MISMATCH";
        if (r === "MATCH") result = "MATCH";
      }
      return result;
    }
    case "OR_CONSTRAINT": {
      let result: ConstraintResult = "NOT_APPLICABLE";
      for (const child of c.constraints) {
        const r = evaluateConstraint(child, counts);
        if (r === "MATCH") return "MATCH";
        if (r === "MISMATCH") result = "MISMATCH";
      }
      return result;
    }
    case "NOT_CONSTRAINT": {
      const r = evaluateConstraint(c.constraint, counts);
      return r === "MATCH" ? "MISMATCH" : r === "MISMATCH" ? "MATCH" : r;
    }
  }
}

/** A host takes the task unless the constraint, as a whole, mismatches: NOT_APPLICABLE passes. */
export function constraintAllows(c: Constraint | undefined, counts: LabelCounts): boolean {
  return c === undefined || evaluateConstraint(c, counts) !== "MISMATCH";
}

/** Some label constraint of the tree has this kind. */
export function constraintHasKind(c: Constraint, kind: LabelConstraintKind): boolean {
  switch (c.type) {
    case "LABEL_CONSTRAINT":
      return c.kind === kind;
    case "AND_CONSTRAINT":
    case "OR_CONSTRAINT":
      return c.constraints.some((x) => constraintHasKind(x, kind));
    case "NOT_CONSTRAINT":
      return constraintHasKind(c.constraint, kind);
  }
}

/** Some HOST label constraint of the tree tests the attribute `key`. */
export function constraintNamesHostAttribute(c: Constraint, key: string): boolean {
  switch (c.type) {
    case "LABEL_CONSTRAINT":
      return c.kind === "HOST" && c.label.key === key;
    case "AND_CONSTRAINT":
    case "OR_CONSTRAINT":
      return c.constraints.some((x) => constraintNamesHostAttribute(x, key));
    case "NOT_CONSTRAINT":
      return constraintNamesHostAttribute(c.constraint, key);
  }
}

/**
 * Peloton's `IsNonExclusiveConstraint`, inverted: the task may go to hosts
 * marked `peloton/exclusive` only when its constraint names that attribute.
 */
export function constraintNamesExclusive(c: Constraint | undefined): boolean {
  return c !== undefined && constraintNamesHostAttribute(c, EXCLUSIVE_ATTRIBUTE);
}
