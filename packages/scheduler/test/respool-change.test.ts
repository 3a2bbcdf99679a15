/**
 * Judging changes against a snapshot, and the records and entitlements a
 * change leaves. The tree:
 *
 *   /          capacity cpu 100
 *   ├─ a       cpu 10 / 100, share 1
 *   │  └─ x    cpu 10 / 100, share 1   demand cpu 30, one job
 *   └─ b       cpu 10 / 100, share 1
 */
import { describe, expect, it } from "vitest";
import { judgeChange, recordsAfter } from "../src/resmgr/respool/change.ts";
import type { PoolConfig } from "../src/resmgr/respool/config.ts";
import { previewChange } from "../src/resmgr/respool/preview.ts";
import { snapshotFrom } from "./support/pools.ts";

const snapshot = snapshotFrom(
  [
    ["/a", { cpu: [10, 100, 1] }],
    ["/a/x", { cpu: [10, 100, 1] }],
    ["/b", { cpu: [10, 100, 1] }],
  ],
  { usage: { "/a/x": { demand: { cpu: 30 } } }, jobs: { "/a/x": 1 } },
);
const cpu = (
  reservation: number,
  limit: number,
  share = 1,
  type: "ELASTIC" | "STATIC" = "ELASTIC",
) => ({
  kind: "cpu",
  reservation,
  limit,
  share,
  type,
});
const config = (name: string, ...resources: ReturnType<typeof cpu>[]): PoolConfig => ({
  name,
  resources,
});
const NOW = new Date("2026-02-01T00:00:00Z");

describe("judgeChange", () => {
  const cases: { name: string; run: () => string[]; codes: string[] }[] = [
    {
      name: "a valid create",
      run: () =>
        codes(judgeChange(snapshot, { action: "create", path: "/c", config: config("c") })),
      codes: [],
    },
    {
      name: "an update that renames the pool",
      run: () =>
        codes(
          judgeChange(snapshot, { action: "update", path: "/b", config: config("c", cpu(1, 2)) }),
        ),
      codes: ["NAME_MISMATCH_PATH"],
    },
    {
      name: "an update of a pool that does not exist names only that",
      run: () =>
        codes(judgeChange(snapshot, { action: "update", path: "/z", config: config("y") })),
      codes: ["POOL_NOT_FOUND"],
    },
    {
      name: "a delete of a pool with a job and demand (usage and jobs come from the snapshot)",
      run: () => codes(judgeChange(snapshot, { action: "delete", path: "/a/x" })),
      codes: ["BUSY"],
    },
    {
      name: "a delete of a parent",
      run: () => codes(judgeChange(snapshot, { action: "delete", path: "/a" })),
      codes: ["NOT_LEAF"],
    },
  ];
  it.each(cases)("$name", (c) => expect(c.run()).toEqual(c.codes));
});

function codes(errors: { code: string }[]): string[] {
  return errors.map((e) => e.code);
}

describe("recordsAfter", () => {
  it("appends a created pool under its parent, with every kind filled", () => {
    const after = recordsAfter(
      snapshot,
      { action: "create", path: "/a/y", config: config("y", cpu(0, 5)) },
      { id: "new", at: NOW, actor: "alice" },
    );
    expect(after.at(-1)).toMatchObject({
      id: "new",
      parentId: "id/a",
      path: "/a/y",
      version: 1,
      createdBy: "alice",
      resources: { cpu: { reservation: 0, limit: 5, share: 1 }, gpu: { limit: 0, share: 1 } },
    });
  });

  it("replaces an updated pool's settings and bumps its version; drops a deleted pool", () => {
    const updated = recordsAfter(
      snapshot,
      { action: "update", path: "/b", config: config("b", cpu(20, 50, 3)) },
      { id: "unused", at: NOW, actor: "alice" },
    );
    expect(updated.find((r) => r.path === "/b")).toMatchObject({
      version: 2,
      resources: { cpu: { reservation: 20, limit: 50, share: 3 } },
    });
    const deleted = recordsAfter(
      snapshot,
      { action: "delete", path: "/b" },
      { id: "unused", at: NOW, actor: "alice" },
    );
    expect(deleted.map((r) => r.path)).toEqual(["/a", "/a/x"]);
  });
});

describe("previewChange", () => {
  it("moves entitlement from the pools that lose to the one that gains", () => {
    // Before: /a 10 reserved + 20 to its demand + 70/2 unclaimed = 65; /b 35.
    // /b reserves 40 STATIC: free 100 − 10 − 40 = 50; /a 10 + 20 + 30/2 = 45; /b 40 + 15 = 55.
    const preview = previewChange(
      snapshot,
      { action: "update", path: "/b", config: config("b", cpu(40, 100, 1, "STATIC")) },
      NOW,
    );
    expect(preview.errors).toEqual([]);
    const moves = Object.fromEntries(preview.moves.map((m) => [m.path, m]));
    expect(moves["/a"]?.before?.cpu).toBeCloseTo(65, 9);
    expect(moves["/a"]?.after?.cpu).toBeCloseTo(45, 9);
    expect(moves["/b"]?.before?.cpu).toBeCloseTo(35, 9);
    expect(moves["/b"]?.after?.cpu).toBeCloseTo(55, 9);
  });

  it("lists no moves for a change that breaks a rule", () => {
    const preview = previewChange(
      snapshot,
      { action: "update", path: "/a/x", config: config("x", cpu(11, 100)) },
      NOW,
    );
    expect(codes(preview.errors)).toEqual(["CHILDREN_RESERVATION_EXCEEDS_PARENT"]);
    expect(preview.moves).toEqual([]);
  });

  it("lists nothing when no entitlement moves", () => {
    const preview = previewChange(
      snapshot,
      { action: "update", path: "/b", config: { ...config("b", cpu(10, 100)), owningTeam: "x" } },
      NOW,
    );
    expect(preview).toEqual({ errors: [], moves: [] });
  });
});
