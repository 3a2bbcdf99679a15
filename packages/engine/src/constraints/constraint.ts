/**
 * Placement constraints, normalised from Peloton's `Constraint` message
 * (peloton-semantics.md §3): a label constraint on the host's attributes
 * (kind HOST) or on the labels of tasks already on the host (kind TASK), or an
 * AND / OR of constraints. NOT_CONSTRAINT is ours (enum number 4, after
 * Peloton's 1–3): it inverts MATCH and MISMATCH, so "not in zone a" needs no
 * counting trick. The job config schema produces this form from the
 * YAML (numbers or names, any spelling); placement evaluates it.
 */
export type LabelConstraintKind = "HOST" | "TASK";
export type ConstraintCondition = "LESS_THAN" | "EQUAL" | "GREATER_THAN";

export interface Label {
  key: string;
  value: string;
}

export interface LabelConstraint {
  type: "LABEL_CONSTRAINT";
  kind: LabelConstraintKind;
  label: Label;
  condition: ConstraintCondition;
  /** The count the condition compares with (TASK, EQUAL, 0 is anti-affinity). */
  requirement: number;
}

export interface AndConstraint {
  type: "AND_CONSTRAINT";
  constraints: Constraint[];
}

export interface OrConstraint {
  type: "OR_CONSTRAINT";
  constraints: Constraint[];
}

export interface NotConstraint {
  type: "NOT_CONSTRAINT";
  constraint: Constraint;
}

export type Constraint = LabelConstraint | AndConstraint | OrConstraint | NotConstraint;

/** How a constraint evaluates on one host (peloton-semantics.md §3). */
export type ConstraintResult = "MATCH" | "MISMATCH" | "NOT_APPLICABLE";
