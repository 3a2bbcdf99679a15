import { poolSnapshot } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import { diffPools, historyEntry } from "../src/resmgr/respool/history.ts";
import { record } from "./support/pools.ts";

const before = poolSnapshot(record("/team", { cpu: [10, 20, 1] }));

describe("diffPools", () => {
  const cases = [
    {
      name: "a reservation raised",
      after: {
        ...before,
        resources: { ...before.resources, cpu: { ...before.resources.cpu, reservation: 12 } },
      },
      changes: [{ field: "resources.cpu.reservation", before: 10, after: 12 }],
    },
    {
      name: "groups and a controller limit set, fields named as the form names them",
      after: { ...before, ldapGroups: ["money"], controllerLimitMaxPercent: 10 },
      changes: [
        { field: "ldapGroups", before: [], after: ["money"] },
        { field: "controllerLimit.maxPercent", before: null, after: 10 },
      ],
    },
    { name: "nothing changed (a new version only)", after: { ...before, version: 2 }, changes: [] },
  ];
  it.each(cases)("$name", (c) => expect(diffPools(before, c.after)).toEqual(c.changes));

  it("lists every setting of a created pool (before null) and of a deleted one (after null)", () => {
    const created = diffPools(null, before);
    expect(created).toContainEqual({ field: "owningTeam", before: null, after: "team" });
    expect(created).toContainEqual({ field: "resources.gpu.share", before: null, after: 1 });
    // Six settings and four per kind, less the controller limit that is unset (null) on both sides.
    expect(created).toHaveLength(6 + 16 - 1);
    expect(diffPools(before, null)).toContainEqual({
      field: "resources.cpu.limit",
      before: 20,
      after: null,
    });
  });
});

describe("historyEntry", () => {
  it("turns a stored change row into who, when and the fields that changed", () => {
    const at = new Date("2026-03-01T10:00:00Z");
    const entry = historyEntry({
      id: "7",
      poolId: "p",
      poolPath: "/team",
      action: "UPDATE",
      actor: "alice",
      at,
      version: 2,
      before,
      after: { ...before, description: "nightly" },
    });
    expect(entry).toEqual({
      id: "7",
      action: "UPDATE",
      actor: "alice",
      at,
      version: 2,
      changes: [{ field: "description", before: "", after: "nightly" }],
    });
  });
});
