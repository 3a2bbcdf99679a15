/**
 * Peloton's `Constraint` message as a job file writes it, read into the
 * normalised `Constraint` of constraints/constraint.ts (peloton-semantics.md
 * §3). The file form is Peloton's: a `type` and the one sub-message it names
 * (`labelConstraint`, `andConstraint.constraints`, `orConstraint.constraints`);
 * NOT_CONSTRAINT (4) is ours, with `notConstraint.constraint`. Recursion goes
 * through getters, not `z.lazy`, so the YAML key walker can see every shape.
 */
import { z } from "zod";
import type { Constraint } from "../../constraints/constraint.ts";
import { boundedList, numberAtMost } from "../../limits/bounded.ts";
import { MAX_CONSTRAINTS, MAX_INT32 } from "../../limits/limits.ts";
import { pelotonEnum } from "../peloton-enum.ts";
import { labelSchema } from "./label.ts";

const constraintType = pelotonEnum({
  LABEL_CONSTRAINT: 1,
  AND_CONSTRAINT: 2,
  OR_CONSTRAINT: 3,
  NOT_CONSTRAINT: 4,
});

const labelConstraintSchema = z.strictObject({
  kind: pelotonEnum({ TASK: 1, HOST: 2 }),
  condition: pelotonEnum({ LESS_THAN: 1, EQUAL: 2, GREATER_THAN: 3 }, { prefix: "CONDITION_" }),
  label: labelSchema,
  requirement: numberAtMost(MAX_INT32)
    .refine(Number.isInteger, "requirement must be a whole number")
    .min(0, "requirement must be ≥ 0")
    .default(0),
});

/** The sub-message each type needs, by its canonical key. */
const SUB_MESSAGE = {
  LABEL_CONSTRAINT: "labelConstraint",
  AND_CONSTRAINT: "andConstraint",
  OR_CONSTRAINT: "orConstraint",
  NOT_CONSTRAINT: "notConstraint",
} as const;
type ConstraintType = keyof typeof SUB_MESSAGE;

const fileConstraintSchema = z.strictObject({
  type: constraintType.optional(),
  labelConstraint: labelConstraintSchema.optional(),
  get andConstraint() {
    return z
      .strictObject({ constraints: boundedList(constraintSchema, MAX_CONSTRAINTS).min(1) })
      .optional();
  },
  get orConstraint() {
    return z
      .strictObject({ constraints: boundedList(constraintSchema, MAX_CONSTRAINTS).min(1) })
      .optional();
  },
  get notConstraint() {
    return z.strictObject({ constraint: constraintSchema }).optional();
  },
});
type FileConstraint = z.output<typeof fileConstraintSchema>;

/**
 * A constraint as written in a job file, transformed into the normalised
 * form. `type` may be left out when exactly one sub-message is given; when it
 * is given, that sub-message must be the one present and no other.
 */
export const constraintSchema: z.ZodType<Constraint, unknown> = fileConstraintSchema.transform(
  (file, ctx): Constraint => {
    const present = (Object.keys(SUB_MESSAGE) as ConstraintType[]).filter(
      (t) => file[SUB_MESSAGE[t]] !== undefined,
    );
    const type = file.type ?? (present.length === 1 ? present[0] : undefined);
    if (type === undefined) {
      ctx.addIssue({
        code: "custom",
        message:
          present.length === 0
            ? "a constraint needs a type and its labelConstraint, andConstraint, orConstraint or notConstraint"
            : `give the type: ${present.map((t) => SUB_MESSAGE[t]).join(" and ")} cannot be combined`,
      });
      return z.NEVER;
    }
    const extra = present.filter((t) => t !== type);
    if (!present.includes(type) || extra.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: [SUB_MESSAGE[type]],
        message: `type ${type} takes ${SUB_MESSAGE[type]}${
          extra.length > 0 ? `, not ${extra.map((t) => SUB_MESSAGE[t]).join(" or ")}` : ""
        }`,
      });
      return z.NEVER;
    }
    return normalise(type, file);
  },
);

function normalise(type: ConstraintType, file: FileConstraint): Constraint {
  switch (type) {
    case "LABEL_CONSTRAINT": {
      const l = file.labelConstraint!;
      return {
        type,
        kind: l.kind,
        label: l.label,
        condition: l.condition,
        requirement: l.requirement,
      };
    }
    case "AND_CONSTRAINT":
      return { type, constraints: file.andConstraint!.constraints };
    case "OR_CONSTRAINT":
      return { type, constraints: file.orConstraint!.constraints };
    case "NOT_CONSTRAINT":
      return { type, constraint: file.notConstraint!.constraint };
  }
}
