import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { isPlainJson, transformer } from "../src/transformer.ts";

describe("the API's transformer", () => {
  const values: [string, unknown][] = [
    ["a tree of plain values", { pools: [{ path: "/a", n: 1.5, ok: true, none: null }], s: "x" }],
    ["a date", { at: new Date("2026-01-01T00:00:00Z") }],
    ["a map", new Map([["a", 1]])],
    ["undefined in an object", { a: undefined, b: 1 }],
    ["undefined in an array", [1, undefined]],
    ["non-finite numbers and -0", [Number.POSITIVE_INFINITY, Number.NaN, -0]],
    ["a bigint", { id: 10n }],
    ["a set", { s: new Set([1, 2]) }],
    ["nothing", undefined],
  ];
  it.each(values)("sends %s exactly as superjson does, and reads it back", (_name, value) => {
    const wire = JSON.parse(JSON.stringify(transformer.serialize(value)));
    expect(wire).toEqual(JSON.parse(JSON.stringify(superjson.serialize(value))));
    expect(superjson.deserialize(wire)).toEqual(value);
    expect(transformer.deserialize(wire)).toEqual(value);
    // What superjson sent reads back the same through the transformer, too.
    const fromSuperjson = JSON.parse(JSON.stringify(superjson.serialize(value)));
    expect(transformer.deserialize(fromSuperjson)).toEqual(superjson.deserialize(fromSuperjson));
  });

  it("takes the fast path only for plain JSON", () => {
    expect(isPlainJson({ a: [1, "b", { c: null }] })).toBe(true);
    expect(isPlainJson({ a: [1, new Date()] })).toBe(false);
    expect(isPlainJson(Object.create(null))).toBe(true);
  });
});
