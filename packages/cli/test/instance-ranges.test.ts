/** Peloton's `--range FROM:TO` (TO excluded) into the API's inclusive ranges. */
import { describe, expect, it } from "vitest";
import { apiRanges, goList, parseRange } from "../src/jobs/instance-ranges.ts";

describe("instance ranges", () => {
  const cases: { name: string; ranges: string[]; count: number; want: unknown }[] = [
    { name: "':' is every instance", ranges: [":"], count: 5, want: undefined },
    { name: "'0:' is every instance", ranges: ["0:"], count: 5, want: undefined },
    {
      name: "a range covering the job is every instance",
      ranges: ["0:9"],
      count: 5,
      want: undefined,
    },
    { name: "TO is excluded", ranges: ["1:3"], count: 5, want: [{ from: 1, to: 2 }] },
    { name: "':2' is the first two", ranges: [":2"], count: 5, want: [{ from: 0, to: 1 }] },
    { name: "'3:' runs to the last", ranges: ["3:"], count: 5, want: [{ from: 3, to: 4 }] },
    {
      name: "several ranges",
      ranges: ["1:2", "3:4"],
      count: 5,
      want: [
        { from: 1, to: 1 },
        { from: 3, to: 3 },
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => expect(apiRanges(c.ranges.map(parseRange), c.count)).toEqual(c.want));

  it("refuses what is not FROM:TO, and ranges that hold no instance", () => {
    expect(() => parseRange("3")).toThrow("--range expects FROM:TO");
    expect(() => parseRange("a:3")).toThrow('FROM must be a whole number ≥ 0, got "a"');
    expect(() => apiRanges([parseRange("7:")], 5)).toThrow(
      "holds no instance of this job (it has 5: 0 to 4)",
    );
    expect(() => apiRanges([parseRange("3:3")], 5)).toThrow("holds no instance");
  });

  it("prints lists as Go's %v does", () => expect(goList([0, 1, 2])).toBe("[0 1 2]"));
});
