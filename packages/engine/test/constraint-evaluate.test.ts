/**
 * Constraint evaluation, peloton-semantics.md §3: a label constraint compares
 * a count with its requirement; AND, OR and our NOT combine MATCH, MISMATCH
 * and NOT_APPLICABLE by the table below. Every combination of two children.
 */
import { describe, expect, it } from "vitest";
import {
  type Constraint,
  type ConstraintResult,
  constraintAllows,
  constraintHasKind,
  constraintNamesExclusive,
  describeConstraint,
  evaluateConstraint,
  type LabelCounts,
} from "../src/index.ts";
import { and, hostIs, hostLabel, not, or, tasksLabelled } from "./support/placement-builders.ts";

/** A host in zone a with 2 tasks labelled app=web. */
const counts: LabelCounts = {
  count: (kind, l) =>
    kind === "HOST"
      ? l.key === "zone" && l.value === "a"
        ? 1
        : 0
      : l.key === "app" && l.value === "web"
        ? 2
        : 0,
};

const M = hostIs("zone", "a");
const MM = hostIs("zone", "b");
const NA = and();
const name: Record<ConstraintResult, Constraint> = { MATCH: M, MISMATCH: MM, NOT_APPLICABLE: NA };
const results: ConstraintResult[] = ["MATCH", "MISMATCH", "NOT_APPLICABLE"];

describe("label constraints: the count against the requirement", () => {
  it.each([
    { name: "HOST EQUAL 1 on a host that has it", c: hostIs("zone", "a"), want: "MATCH" },
    { name: "HOST EQUAL 1 on a host that lacks it", c: hostIs("zone", "b"), want: "MISMATCH" },
    { name: "HOST EQUAL 0 (not in zone b)", c: hostLabel("zone", "b", "EQUAL", 0), want: "MATCH" },
    { name: "HOST GREATER_THAN 0", c: hostLabel("zone", "a", "GREATER_THAN", 0), want: "MATCH" },
    {
      name: "HOST LESS_THAN 1 on a host that has it",
      c: hostLabel("zone", "a", "LESS_THAN", 1),
      want: "MISMATCH",
    },
    {
      name: "TASK EQUAL 0 is anti-affinity: 2 tasks → mismatch",
      c: tasksLabelled("app", "web", "EQUAL", 0),
      want: "MISMATCH",
    },
    {
      name: "TASK EQUAL 0 with no such task → match",
      c: tasksLabelled("app", "db", "EQUAL", 0),
      want: "MATCH",
    },
    {
      name: "TASK LESS_THAN 3 with 2",
      c: tasksLabelled("app", "web", "LESS_THAN", 3),
      want: "MATCH",
    },
    {
      name: "TASK LESS_THAN 2 with 2",
      c: tasksLabelled("app", "web", "LESS_THAN", 2),
      want: "MISMATCH",
    },
    {
      name: "TASK GREATER_THAN 1 with 2 (affinity)",
      c: tasksLabelled("app", "web", "GREATER_THAN", 1),
      want: "MATCH",
    },
    {
      name: "TASK GREATER_THAN 2 with 2",
      c: tasksLabelled("app", "web", "GREATER_THAN", 2),
      want: "MISMATCH",
    },
  ] as const)("$name → $want", ({ c, want }) => expect(evaluateConstraint(c, counts)).toBe(want));
});

// AND: any MISMATCH → MISMATCH, else MATCH if any matched, else NOT_APPLICABLE.
const andTable: Record<string, ConstraintResult> = {
  "MATCH,MATCH": "MATCH",
  "MATCH,MISMATCH": "MISMATCH",
  "MATCH,NOT_APPLICABLE": "MATCH",
  "MISMATCH,MATCH": "MISMATCH",
  "MISMATCH,MISMATCH": "MISMATCH",
  "MISMATCH,NOT_APPLICABLE": "MISMATCH",
  "NOT_APPLICABLE,MATCH": "MATCH",
  "NOT_APPLICABLE,MISMATCH": "MISMATCH",
  "NOT_APPLICABLE,NOT_APPLICABLE": "NOT_APPLICABLE",
};
// OR: any MATCH → MATCH, else MISMATCH if any mismatched, else NOT_APPLICABLE.
const orTable: Record<string, ConstraintResult> = {
  "MATCH,MATCH": "MATCH",
  "MATCH,MISMATCH": "MATCH",
  "MATCH,NOT_APPLICABLE": "MATCH",
  "MISMATCH,MATCH": "MATCH",
  "MISMATCH,MISMATCH": "MISMATCH",
  "MISMATCH,NOT_APPLICABLE": "MISMATCH",
  "NOT_APPLICABLE,MATCH": "MATCH",
  "NOT_APPLICABLE,MISMATCH": "MISMATCH",
  "NOT_APPLICABLE,NOT_APPLICABLE": "NOT_APPLICABLE",
};
const pairs = results.flatMap((a) => results.map((b) => [a, b] as const));

describe("AND of two children", () => {
  it.each(pairs)("AND(%s, %s)", (a, b) =>
    expect(evaluateConstraint(and(name[a], name[b]), counts)).toBe(andTable[`${a},${b}`]),
  );
  it("an empty AND is NOT_APPLICABLE", () =>
    expect(evaluateConstraint(and(), counts)).toBe("NOT_APPLICABLE"));
});

describe("OR of two children", () => {
  it.each(pairs)("OR(%s, %s)", (a, b) =>
    expect(evaluateConstraint(or(name[a], name[b]), counts)).toBe(orTable[`${a},${b}`]),
  );
  it("an empty OR is NOT_APPLICABLE", () =>
    expect(evaluateConstraint(or(), counts)).toBe("NOT_APPLICABLE"));
});

describe("NOT (ours) swaps MATCH and MISMATCH", () => {
  it.each([
    ["MATCH", "MISMATCH"],
    ["MISMATCH", "MATCH"],
    ["NOT_APPLICABLE", "NOT_APPLICABLE"],
  ] as const)("NOT(%s) = %s", (a, want) =>
    expect(evaluateConstraint(not(name[a]), counts)).toBe(want),
  );
});

describe("nested constraints", () => {
  it.each([
    {
      name: "not in zone b and fewer than 3 web tasks",
      c: and(not(MM), tasksLabelled("app", "web", "LESS_THAN", 3)),
      want: "MATCH",
    },
    { name: "zone b or zone a", c: or(MM, M), want: "MATCH" },
    { name: "NOT of an OR that matched", c: not(or(MM, M)), want: "MISMATCH" },
    { name: "AND of an n/a OR and a match", c: and(or(NA, NA), M), want: "MATCH" },
    { name: "OR of an n/a AND and a mismatch", c: or(and(), MM), want: "MISMATCH" },
    { name: "double NOT", c: not(not(M)), want: "MATCH" },
  ] as const)("$name → $want", ({ c, want }) => expect(evaluateConstraint(c, counts)).toBe(want));
});

describe("a host takes the task unless the whole constraint mismatches", () => {
  it.each([
    { name: "no constraint", c: undefined, allows: true },
    { name: "MATCH", c: M, allows: true },
    { name: "MISMATCH", c: MM, allows: false },
    { name: "top-level NOT_APPLICABLE passes", c: NA, allows: true },
  ])("$name → $allows", ({ c, allows }) => expect(constraintAllows(c, counts)).toBe(allows));
});

describe("what a constraint names", () => {
  it.each([
    { name: "no constraint", c: undefined, names: false },
    {
      name: "a HOST constraint on peloton/exclusive",
      c: hostIs("peloton/exclusive", "ml"),
      names: true,
    },
    { name: "inside an AND", c: and(M, hostIs("peloton/exclusive", "ml")), names: true },
    {
      name: "inside a NOT (naming is the ticket, as in Peloton)",
      c: not(hostIs("peloton/exclusive", "ml")),
      names: true,
    },
    {
      name: "a TASK label with that key does not count",
      c: tasksLabelled("peloton/exclusive", "ml", "EQUAL", 0),
      names: false,
    },
    { name: "other attributes", c: or(M, MM), names: false },
  ])("exclusive: $name → $names", ({ c, names }) =>
    expect(constraintNamesExclusive(c)).toBe(names),
  );

  it.each([
    { c: M, kind: "HOST", has: true },
    { c: M, kind: "TASK", has: false },
    { c: and(M, not(tasksLabelled("a", "b", "EQUAL", 0))), kind: "TASK", has: true },
  ] as const)("constraintHasKind($kind)", ({ c, kind, has }) =>
    expect(constraintHasKind(c, kind)).toBe(has),
  );
});

describe("constraints in words", () => {
  it.each([
    { c: hostIs("zone", "a"), words: "zone = a" },
    { c: hostLabel("zone", "a", "EQUAL", 0), words: "zone ≠ a" },
    { c: hostLabel("rack", "r1", "GREATER_THAN", 2), words: "host label rack=r1 count > 2" },
    { c: tasksLabelled("app", "web", "EQUAL", 0), words: "no task labelled app=web on the host" },
    {
      c: tasksLabelled("app", "web", "LESS_THAN", 3),
      words: "fewer than 3 tasks labelled app=web on the host",
    },
    {
      c: tasksLabelled("app", "web", "GREATER_THAN", 0),
      words: "more than 0 tasks labelled app=web on the host",
    },
    {
      c: tasksLabelled("app", "web", "EQUAL", 1),
      words: "exactly 1 task labelled app=web on the host",
    },
    {
      c: and(M, or(hostIs("rack", "r1"), hostIs("rack", "r2"))),
      words: "zone = a and (rack = r1 or rack = r2)",
    },
    { c: not(M), words: "not (zone = a)" },
    { c: and(), words: "no condition" },
  ])("$words", ({ c, words }) => expect(describeConstraint(c)).toBe(words));
});
