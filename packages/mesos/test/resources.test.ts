/** Pure resource arithmetic: ranges, the resource bag, builders. */
import { describe, expect, it } from "vitest";
import {
  parseRanges,
  ResourceBag,
  rangesResource,
  scalarResource,
  volumeResource,
} from "../src/index.ts";
import { rangesContain, subtractRanges } from "../src/resources/ranges.ts";

describe("ranges", () => {
  it.each([
    ["31000-32000", [{ begin: 31000, end: 32000 }]],
    [
      "[31000-31005, 31003-31010,40000]",
      [
        { begin: 31000, end: 31010 },
        { begin: 40000, end: 40000 },
      ],
    ],
    ["1-2,3-4", [{ begin: 1, end: 4 }]],
  ])("parses and normalises %s", (text, expected) => {
    expect(parseRanges(text)).toEqual(expected);
  });

  it("rejects a reversed range", () => {
    expect(() => parseRanges("10-5")).toThrow(/invalid range/);
  });

  it("subtracts and tests containment", () => {
    // [31000-32000] − [31000, 31500-31600] = [31001-31499, 31601-32000]
    expect(
      subtractRanges(
        [{ begin: 31000, end: 32000 }],
        [
          { begin: 31000, end: 31000 },
          { begin: 31500, end: 31600 },
        ],
      ),
    ).toEqual([
      { begin: 31001, end: 31499 },
      { begin: 31601, end: 32000 },
    ]);
    expect(
      rangesContain(
        [{ begin: 1, end: 10 }],
        [
          { begin: 2, end: 3 },
          { begin: 10, end: 10 },
        ],
      ),
    ).toBe(true);
    expect(rangesContain([{ begin: 1, end: 10 }], [{ begin: 9, end: 11 }])).toBe(false);
  });
});

describe("ResourceBag", () => {
  const agent = () =>
    ResourceBag.of([
      scalarResource("cpus", 4),
      scalarResource("mem", 1024),
      rangesResource("ports", [[31000, 31009]]),
    ]);

  it("adds and subtracts in Mesos' fixed-point precision", () => {
    const bag = ResourceBag.of([scalarResource("cpus", 0.1)]).add([scalarResource("cpus", 0.2)]);
    expect(bag.scalar("cpus")).toBe(0.3);
    bag.subtract([scalarResource("cpus", 0.3)]);
    expect(bag.isEmpty()).toBe(true);
  });

  it("contains what fits, including port ranges", () => {
    const task = [scalarResource("cpus", 1), rangesResource("ports", [[31005, 31005]])];
    expect(agent().contains(task)).toBe(true);
    expect(agent().contains([rangesResource("ports", [[31010, 31010]])])).toBe(false);
    expect(agent().contains([scalarResource("cpus", 4.001)])).toBe(false);
    const left = agent().subtract(task);
    expect(left.toResources().find((r) => r.name === "ports")?.ranges?.range).toEqual([
      { begin: 31000, end: 31004 },
      { begin: 31006, end: 31009 },
    ]);
  });

  it("ignores allocation_info but keeps reservations and volumes apart", () => {
    const bag = agent().add([scalarResource("disk", 100, { role: "db" })]);
    // Same resource as far as arithmetic goes, whoever it is allocated to.
    expect(bag.contains([scalarResource("cpus", 1, { allocationRole: "ml" })])).toBe(true);
    // Reserved disk is not unreserved disk, and a volume is not plain reserved disk.
    expect(bag.contains([scalarResource("disk", 1)])).toBe(false);
    const volume = volumeResource({
      role: "db",
      sizeMb: 100,
      persistenceId: "v",
      containerPath: "data",
    });
    expect(bag.contains([volume])).toBe(false);
    expect(bag.scalar("disk", "db")).toBe(100);
  });

  it("writes proto resources in a stable order with the allocation role", () => {
    const out = ResourceBag.of([
      rangesResource("ports", [[1, 2]]),
      scalarResource("disk", 5, { role: "db" }),
      scalarResource("mem", 2),
      scalarResource("cpus", 1),
    ]).toResources("ml");
    expect(out.map((r) => `${r.name}:${r.role}`)).toEqual([
      "cpus:*",
      "mem:*",
      "ports:*",
      "disk:db",
    ]);
    expect(out[0]).toEqual({
      name: "cpus",
      type: "SCALAR",
      scalar: { value: 1 },
      role: "*",
      allocation_info: { role: "ml" },
    });
    expect(out[3]?.reservations).toEqual([{ type: "DYNAMIC", role: "db" }]);
  });
});
