import { describe, expect, it } from "vitest";
import { arrayLiteral } from "../src/array-literal.ts";

describe("arrayLiteral", () => {
  it.each([
    { name: "an empty array", values: [], literal: "{}" },
    { name: "NULL for null and undefined", values: [null, undefined], literal: "{NULL,NULL}" },
    { name: 'the string "NULL" quoted', values: ["NULL"], literal: '{"NULL"}' },
    {
      name: "quotes and backslashes escaped, braces and commas kept",
      values: ['a "b" \\c', "{x,y}"],
      literal: '{"a \\"b\\" \\\\c","{x,y}"}',
    },
    {
      name: "numbers and booleans",
      values: [1, -2.5, true, false],
      literal: '{"1","-2.5","t","f"}',
    },
    {
      name: "dates in UTC",
      values: [new Date("2026-11-25T07:00:00.123Z")],
      literal: '{"2026-11-25T07:00:00.123Z"}',
    },
    { name: "objects as JSON", values: [{ http: 31000 }], literal: '{"{\\"http\\":31000}"}' },
  ])("writes $name", ({ values, literal }) => {
    expect(arrayLiteral(values)).toBe(literal);
  });
});
