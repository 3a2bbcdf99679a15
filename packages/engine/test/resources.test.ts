import { describe, expect, it } from "vitest";
import {
  addResources,
  amountLessOrEqual,
  EPSILON,
  formatAmount,
  formatResources,
  isResourceKind,
  isZeroResources,
  kindsExceeding,
  minResources,
  RESOURCE_KINDS,
  resourcesEqual,
  resourcesLessOrEqual,
  subtractAmount,
  subtractResources,
  toResources,
} from "../src/index.ts";

describe("resource kinds", () => {
  it("are processed cpu, gpu, memory, disk (peloton-semantics.md)", () => {
    expect(RESOURCE_KINDS).toEqual(["cpu", "gpu", "memory", "disk"]);
  });
  it.each([
    ["cpu", true],
    ["memory", true],
    ["cpus", false],
    ["mem", false],
  ])("isResourceKind(%s) = %s", (k, ok) => expect(isResourceKind(k)).toBe(ok));
});

describe("subtracting never goes below zero (peloton-semantics.md §1)", () => {
  it.each([
    { name: "plain difference", a: 10, b: 4, want: 6 },
    { name: "a < b clamps at 0", a: 4, b: 10, want: 0 },
    { name: "a result below ε is 0", a: 10.0005, b: 10, want: 0 },
    { name: "a result of exactly ε stays", a: EPSILON, b: 0, want: EPSILON },
    { name: "a result just above ε stays", a: 1.001, b: 1, want: 1.001 - 1 },
    { name: "equal amounts give 0", a: 3, b: 3, want: 0 },
  ])("$name", ({ a, b, want }) => expect(subtractAmount(a, b)).toBe(want));

  it("works per kind", () => {
    const r = subtractResources(
      { cpu: 10, gpu: 1, memory: 100, disk: 5 },
      { cpu: 4, gpu: 2, memory: 99.9995, disk: 0 },
    );
    expect(r).toEqual({ cpu: 6, gpu: 0, memory: 0, disk: 5 });
  });
});

describe("comparisons use ε like Peloton's lessThanOrEqual", () => {
  it.each([
    { a: 1, b: 2, le: true },
    { a: 2, b: 1, le: false },
    { a: 1.0005, b: 1, le: true },
    { a: 1.001, b: 1, le: false },
  ])("$a ≤ $b is $le", ({ a, b, le }) => expect(amountLessOrEqual(a, b)).toBe(le));

  it("all kinds must hold", () => {
    const small = { cpu: 1, gpu: 0, memory: 10, disk: 0 };
    expect(resourcesLessOrEqual(small, { cpu: 1, gpu: 0, memory: 10.0001, disk: 0 })).toBe(true);
    expect(resourcesLessOrEqual(small, { cpu: 2, gpu: 0, memory: 9, disk: 0 })).toBe(false);
    expect(kindsExceeding(small, { cpu: 0, gpu: 0, memory: 9, disk: 0 })).toEqual([
      "cpu",
      "memory",
    ]);
  });

  it("zero within ε, equality exact", () => {
    expect(isZeroResources({ cpu: 0.0001, gpu: 0, memory: 0, disk: 0 })).toBe(true);
    expect(isZeroResources({ cpu: 0.01, gpu: 0, memory: 0, disk: 0 })).toBe(false);
    expect(resourcesEqual(toResources({ cpu: 1 }), { cpu: 1, gpu: 0, memory: 0, disk: 0 })).toBe(
      true,
    );
    expect(resourcesEqual(toResources({ cpu: 1 }), toResources({ cpu: 1.0001 }))).toBe(false);
  });
});

describe("helpers", () => {
  it("add, min and fill", () => {
    const a = toResources({ cpu: 1, memory: 5 });
    const b = toResources({ cpu: 3, disk: 2 });
    expect(addResources(a, b)).toEqual({ cpu: 4, gpu: 0, memory: 5, disk: 2 });
    expect(minResources(a, b)).toEqual({ cpu: 1, gpu: 0, memory: 0, disk: 0 });
  });
  it.each([
    [33.333333, "33.33"],
    [10, "10"],
    [0.5, "0.5"],
    [17.4996, "17.5"],
    [-0.0001, "0"],
  ])("formatAmount(%d) = %s", (n, s) => expect(formatAmount(n)).toBe(s));
  it("formats the non-zero kinds", () => {
    expect(formatResources(toResources({ cpu: 2, memory: 512 }))).toBe("2 cpu, 512 MB memory");
    expect(formatResources(toResources({}))).toBe("nothing");
  });
});
