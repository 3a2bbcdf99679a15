import { describe, expect, it } from "vitest";
import { coversEveryInstance } from "../src/lifecycle/instance-scope.ts";

describe("coversEveryInstance (Peloton's StopTasks: stopping them all stops the job)", () => {
  it.each([
    { name: "no ranges named", scope: "all" as const, count: 4, all: true },
    { name: "one range over the job", scope: [{ from: 0, to: 3 }], count: 4, all: true },
    { name: "a range past the end", scope: [{ from: 0, to: 9 }], count: 4, all: true },
    {
      name: "ranges that meet, out of order",
      scope: [
        { from: 2, to: 3 },
        { from: 0, to: 1 },
      ],
      count: 4,
      all: true,
    },
    {
      name: "overlapping ranges",
      scope: [
        { from: 0, to: 2 },
        { from: 1, to: 3 },
      ],
      count: 4,
      all: true,
    },
    { name: "a subset", scope: [{ from: 1, to: 3 }], count: 4, all: false },
    {
      name: "a gap",
      scope: [
        { from: 0, to: 1 },
        { from: 3, to: 3 },
      ],
      count: 4,
      all: false,
    },
    { name: "the last one missing", scope: [{ from: 0, to: 2 }], count: 4, all: false },
    { name: "no ranges at all", scope: [], count: 4, all: false },
  ])("$name → $all", ({ scope, count, all }) => {
    expect(coversEveryInstance(scope, count)).toBe(all);
  });
});
