import type { Constraint, LabelConstraint } from "./constraint.ts";

function describeLabel(c: LabelConstraint): string {
  const { key, value } = c.label;
  const r = c.requirement;
  if (c.kind === "HOST") {
    // A host carries an attribute value once: "count = 1" and "count > 0" both mean "has it".
    const has = (c.condition === "EQUAL" && r === 1) || (c.condition === "GREATER_THAN" && r === 0);
    const lacks = (c.condition === "EQUAL" && r === 0) || (c.condition === "LESS_THAN" && r === 1);
    if (has) return `${key} = ${value}`;
    if (lacks) return `${key} ≠ ${value}`;
    const op = c.condition === "LESS_THAN" ? "<" : c.condition === "EQUAL" ? "=" : ">";
    return `host label ${key}=${value} count ${op} ${r}`;
  }
  const tasks = (n: number) => `${n} task${n === 1 ? "" : "s"} labelled ${key}=${value}`;
  if ((c.condition === "EQUAL" && r === 0) || (c.condition === "LESS_THAN" && r === 1)) {
    return `no task labelled ${key}=${value} on the host`;
  }
  if (c.condition === "LESS_THAN") return `fewer than ${tasks(r)} on the host`;
  if (c.condition === "EQUAL") return `exactly ${tasks(r)} on the host`;
  return `more than ${tasks(r)} on the host`;
}

function nested(c: Constraint): string {
  const text = describeConstraint(c);
  return c.type === "AND_CONSTRAINT" || c.type === "OR_CONSTRAINT" ? `(${text})` : text;
}

/**
 * A constraint in words, as "why pending" shows it: `zone = a`, `no task
 * labelled app=web on the host`, `zone = a and (rack = r1 or rack = r2)`.
 */
export function describeConstraint(c: Constraint): string {
  switch (c.type) {
    case "LABEL_CONSTRAINT":
      return describeLabel(c);
    case "AND_CONSTRAINT":
    case "OR_CONSTRAINT":
      if (c.constraints.length === 0) return "no condition";
      return c.constraints.map(nested).join(c.type === "AND_CONSTRAINT" ? " and " : " or ");
    case "NOT_CONSTRAINT":
      return `not (${describeConstraint(c.constraint)})`;
  }
}
