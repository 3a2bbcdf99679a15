/** Port ranges: normalised, counted, looked up, taken from. */
import { describe, expect, it } from "vitest";
import {
  lowestFreePorts,
  normalizePortRanges,
  portCount,
  portIsFree,
  removePorts,
} from "../src/placement/ports.ts";

const r = (begin: number, end: number) => ({ begin, end });

describe("port ranges", () => {
  it.each([
    {
      name: "sorted and merged when overlapping",
      input: [r(10, 20), r(1, 5), r(15, 30)],
      want: [r(1, 5), r(10, 30)],
    },
    { name: "touching ranges merge", input: [r(1, 5), r(6, 8)], want: [r(1, 8)] },
    { name: "empty stays empty", input: [], want: [] },
  ])("normalize: $name", ({ input, want }) => expect(normalizePortRanges(input)).toEqual(want));

  it("counts ports, both ends included", () => expect(portCount([r(1, 5), r(10, 10)])).toBe(6));

  it.each([
    { port: 1, free: true },
    { port: 5, free: true },
    { port: 7, free: false },
    { port: 10, free: true },
    { port: 11, free: false },
  ])("port $port free: $free", ({ port, free }) =>
    expect(portIsFree([r(1, 5), r(10, 10)], port)).toBe(free),
  );

  it.each([
    { name: "from the middle", take: [3], want: [r(1, 2), r(4, 5), r(10, 10)] },
    { name: "both ends", take: [1, 5], want: [r(2, 4), r(10, 10)] },
    { name: "a whole one-port range", take: [10], want: [r(1, 5)] },
    { name: "across ranges, unsorted", take: [10, 2], want: [r(1, 1), r(3, 5)] },
  ])("remove: $name", ({ take, want }) =>
    expect(removePorts([r(1, 5), r(10, 10)], take)).toEqual(want),
  );

  it("dynamic ports are the lowest free ones, skipping the task's static ones", () => {
    expect(lowestFreePorts([r(1, 3), r(10, 12)], 4, [2])).toEqual([1, 3, 10, 11]);
  });
});
