import { describe, expect, it } from "vitest";
import {
  decodeKeyset,
  encodeKeyset,
  lineageOf,
  poolKeysOf,
} from "../src/repositories/preemptions/filters.ts";

describe("pool keys of a preemption row", () => {
  it.each([
    { name: "a top-level pool", path: "/web", lineage: ["/web"] },
    {
      name: "a deep pool lists each ancestor below the root",
      path: "/a/b/c",
      lineage: ["/a", "/a/b", "/a/b/c"],
    },
    { name: "the root has none", path: "/", lineage: [] },
  ])("$name", ({ path, lineage }) => {
    expect(lineageOf(path)).toEqual(lineage);
  });

  it("prefixes each side, and leaves the beneficiary out when there is none", () => {
    expect(poolKeysOf("/a/x", ["/b"])).toEqual(["victim:/a", "victim:/a/x", "beneficiary:/b"]);
    expect(poolKeysOf("/a/x", [])).toEqual(["victim:/a", "victim:/a/x"]);
    // Every pool it was for, each ancestor once.
    expect(poolKeysOf("/a/x", ["/b/c", "/b/d", "/e"])).toEqual([
      "victim:/a",
      "victim:/a/x",
      "beneficiary:/b",
      "beneficiary:/b/c",
      "beneficiary:/b/d",
      "beneficiary:/e",
    ]);
  });
});

describe("keyset cursor", () => {
  it("round-trips the time to the millisecond and the id", () => {
    const k = { at: new Date("2026-11-23T01:02:03.456Z"), id: "9007199254740993" };
    expect(decodeKeyset(encodeKeyset(k))).toEqual(k);
  });

  it.each(["", "abc", "12_", "_12", "1.5_2", "1_2_3"])("refuses %j", (text) => {
    expect(decodeKeyset(text)).toBeUndefined();
  });
});
