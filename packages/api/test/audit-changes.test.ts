import { describe, expect, it } from "vitest";
import { auditChanges, describeAuditChange } from "../src/schemas/audit.ts";

describe("auditChanges", () => {
  it("names the nested fields that moved, dotted, and nothing else", () => {
    const before = { name: "web", resources: { cpu: { reservation: 10, limit: 50 }, gpu: {} } };
    const after = { name: "web", resources: { cpu: { reservation: 12, limit: 50 }, gpu: {} } };
    expect(auditChanges(before, after)).toEqual([
      { field: "resources.cpu.reservation", before: 10, after: 12 },
    ]);
  });

  it("lists every field on one side for a creation or a deletion", () => {
    expect(auditChanges(null, { name: "web", instances: 3 })).toEqual([
      { field: "name", before: null, after: "web" },
      { field: "instances", before: null, after: 3 },
    ]);
    expect(auditChanges({ state: "UP" }, null)).toEqual([
      { field: "state", before: "UP", after: null },
    ]);
  });

  it("compares lists as values, and keeps a field that appears or disappears", () => {
    expect(
      auditChanges({ groups: ["a"], goal: "RUNNING" }, { groups: ["a", "b"], reason: "x" }),
    ).toEqual([
      { field: "groups", before: ["a"], after: ["a", "b"] },
      { field: "goal", before: "RUNNING", after: null },
      { field: "reason", before: null, after: "x" },
    ]);
  });

  it("words a change by its first fields", () => {
    expect(describeAuditChange({ a: { b: 1, c: 2 } }, { a: { b: 3, c: 4 }, d: 5 })).toBe(
      "a b 1 → 3, a c 2 → 4 and 1 more",
    );
    expect(describeAuditChange(null, { a: 1 })).toBe("created");
    expect(describeAuditChange({ a: 1 }, null)).toBe("deleted");
  });
});
