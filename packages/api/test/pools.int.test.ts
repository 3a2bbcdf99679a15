/**
 * The pools router called directly with a real context on the scratch
 * database. The tree every case starts from, created through the API:
 *
 *   /          capacity: one host, cpu 100
 *   ├─ a       cpu reservation 10, limit 100, share 1
 *   │  ├─ x    cpu 5 / 100, share 1   demand: 20 cpu of PENDING tasks
 *   │  └─ y    cpu 5 / 100, share 1
 *   ├─ b       cpu 10 / 100, share 1
 *   └─ c       cpu 10 / 100, share 1
 *
 * Other kinds: Peloton's defaults (reservation 0, limit 0, share 1).
 */
import type { RespoolConfigInput } from "@peloton/api/schemas";
import { testContext } from "@peloton/test-support/api/context.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { TRPCError } from "@trpc/server";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { type ApiIssue, createCaller, issuesOf } from "../src/index.ts";
import { givenHost, givenTasks } from "./support/cluster.ts";

const ctx = testContext();
const { gateway } = ctx;
const caller = createCaller(ctx);
afterAll(() => ctx.close());

const cpu = (reservation: number, limit: number, share = 1) => ({
  kind: "cpu",
  reservation,
  limit,
  share,
});
const config = (name: string, ...resources: ReturnType<typeof cpu>[]): RespoolConfigInput => ({
  name,
  owningTeam: "team6",
  resources,
});

beforeEach(async () => {
  await resetDatabase();
  await givenHost(gateway, "h1", { cpu: 100 });
  for (const [path, c] of [
    ["/a", cpu(10, 100)],
    ["/a/x", cpu(5, 100)],
    ["/a/y", cpu(5, 100)],
    ["/b", cpu(10, 100)],
    ["/c", cpu(10, 100)],
  ] as const) {
    await caller.pools.create({ path, config: config(path.split("/").pop()!, c) });
  }
  await givenTasks(gateway, "/a/x", [
    { cpu: 12, state: "PENDING" },
    { cpu: 8, state: "PENDING" },
  ]);
});

/**
 * The error a call rejects with (fails the test if it resolves), with the
 * issues the error formatter sends to clients for that input.
 */
async function rejection(
  call: Promise<unknown>,
  input?: unknown,
): Promise<TRPCError & { issues: ApiIssue[] }> {
  const err = await call.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  const trpcError = err as TRPCError;
  return Object.assign(trpcError, { issues: issuesOf(trpcError.cause, input) ?? [] });
}

/** The audit log of one pool, oldest first. */
async function auditRows(path: string) {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    const { rows } = await client.query<{
      action: string;
      actor: string;
      before: unknown;
      after: unknown;
    }>(
      "SELECT action, actor, before, after FROM audit_log WHERE target_type = 'pool' AND target_id = $1 ORDER BY id",
      [path],
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** Everything a change writes, to prove a refused change wrote nothing. */
async function writes() {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM pool_changes) || '/' || (SELECT count(*) FROM audit_log)
        || '/' || (SELECT count(*) FROM entitlement_samples)
        || '/' || (SELECT string_agg(path || '@' || version, ',' ORDER BY path) FROM resource_pools) AS n`,
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe("pools.tree", () => {
  it("lists every pool in tree order with Peloton's entitlements", async () => {
    const tree = await caller.pools.tree();
    expect(tree.pools.map((p) => p.path)).toEqual(["/a", "/a/x", "/a/y", "/b", "/c"]);
    expect(tree.cluster).toMatchObject({ hosts: 1, capacity: { cpu: 100 } });
    const e = Object.fromEntries(tree.pools.map((p) => [p.path, p.resources.cpu.entitlement]));
    // /a: 10 reserved + 10 to its unmet demand + 80/3 of what nobody asked for.
    expect(e["/a"]).toBeCloseTo(10 + 10 + 80 / 3, 9);
    expect(e["/b"]).toBeCloseTo(80 / 3, 9);
    expect(e["/c"]).toBeCloseTo(80 / 3, 9);
    // /a/x: 5 reserved + 15 to demand + half of (46.67 − 20); /a/y the other half.
    expect(e["/a/x"]).toBeCloseTo(5 + 15 + (10 + 10 + 80 / 3 - 20) / 2, 9);
    expect(e["/a/y"]).toBeCloseTo((10 + 10 + 80 / 3 - 20) / 2, 9);
    const x = tree.pools.find((p) => p.path === "/a/x")!;
    expect(x.resources.cpu).toMatchObject({ reservation: 5, limit: 100, share: 1, demand: 20 });
    expect(tree.pools.find((p) => p.path === "/a")!.resources.cpu.demand).toBe(20);
  });

  it("without hosts: capacity 0, nothing to share; reservations still count, beyond what the root has (Peloton)", async () => {
    await gateway.hosts.upsert({
      hostname: "h1",
      agentId: "agent-h1",
      attributes: {},
      cpu: 100,
      memMb: 0,
      diskMb: 0,
      gpu: 0,
      ports: [],
      state: "DOWN",
    });
    const tree = await caller.pools.tree();
    expect(tree.cluster).toMatchObject({ hosts: 0, capacity: { cpu: 0 } });
    const e = Object.fromEntries(tree.pools.map((p) => [p.path, p.resources.cpu.entitlement]));
    // Phase 1 assigns min(want, reservation) whatever the parent has (peloton-semantics.md §1);
    // /a/x: 5 reserved + the 5 left of /a's 10.
    expect(e).toEqual({ "/a": 10, "/a/x": 10, "/a/y": 0, "/b": 0, "/c": 0 });
    const a = await caller.pools.get({ path: "/a" });
    expect(a.explanation.cpu.steps).toContainEqual(
      expect.objectContaining({ step: "reserved", amount: 10, overParent: 10 }),
    );
  });
});

describe("pools.get", () => {
  it("returns one pool with the calculator's steps and its parent's room", async () => {
    const x = await caller.pools.get({ path: "/a/x" });
    expect(x).toMatchObject({ path: "/a/x", parentPath: "/a", version: 1, createdBy: "alice" });
    expect(x.explanation.cpu.steps.map((s) => s.step)).toEqual([
      "wants",
      "reserved",
      "share",
      "capped-by-demand",
      "unclaimed",
    ]);
    expect(x.explanation.cpu.summary).toMatch(/^wants 20 cpu; reserved 5 cpu; borrowed 15/);
    expect(x.room.cpu).toEqual({ parentReservation: 10, siblingsReservation: 5, parentLimit: 100 });
    expect(x.config.resources.find((r) => r.kind === "cpu")).toMatchObject({ reservation: 5 });
  });

  it("is NOT_FOUND for a path that names no pool", async () => {
    const err = await rejection(caller.pools.get({ path: "/nope" }));
    expect(err.code).toBe("NOT_FOUND");
    expect(err.issues).toEqual([expect.objectContaining({ field: "path" })]);
  });
});

describe("pools.update", () => {
  it("writes the pool, its change row, its audit row and samples of the pools that moved, in one go", async () => {
    const before = await writes();
    const result = await caller.pools.update({
      path: "/b",
      version: 1,
      config: config("b", cpu(10, 100, 2)),
    });
    expect(result).toMatchObject({ path: "/b", version: 2 });
    // /b's share 2 of 4 takes half of the 80 nobody asked for: /a 40, /b 40, /c 20.
    const moved = Object.fromEntries(result.moves.map((m) => [m.path, m.after?.cpu]));
    expect(Object.keys(moved).sort()).toEqual(["/a", "/a/x", "/a/y", "/b", "/c"]);
    expect(moved["/b"]).toBeCloseTo(40, 9);
    expect(moved["/c"]).toBeCloseTo(20, 9);
    expect(moved["/a/x"]).toBeCloseTo(30, 9);
    expect(await writes()).not.toEqual(before);

    const history = await caller.pools.history({ path: "/b" });
    expect(history.items[0]).toMatchObject({
      action: "UPDATE",
      actor: "alice",
      version: 2,
      changes: [{ field: "resources.cpu.share", before: 1, after: 2 }],
    });
    const series = await caller.pools.entitlementSeries({ path: "/b", range: "15m" });
    expect(series.kinds.cpu.at(-1)?.entitlement).toBeCloseTo(40, 9);

    const audit = await auditRows("/b");
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ["pool.create", "alice"],
      ["pool.update", "alice"],
    ]);
    expect(audit[0]!.before).toBeNull();
    expect(audit[1]).toMatchObject({
      before: { resources: { cpu: { share: 1 } }, version: 1 },
      after: { resources: { cpu: { share: 2 } }, version: 2 },
    });
  });

  it("of one version twice at once: exactly one wins, the other gets CONFLICT naming both versions", async () => {
    const edits = [cpu(10, 100, 2), cpu(10, 100, 3)].map((c) =>
      caller.pools.update({ path: "/b", version: 1, config: config("b", c) }),
    );
    const results = await Promise.allSettled(edits);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const err = await rejection(Promise.reject((lost[0] as PromiseRejectedResult).reason));
    expect(err.code).toBe("CONFLICT");
    expect(err.message).toContain("you edited version 1, it is now at version 2");
    expect(err.issues).toEqual([expect.objectContaining({ field: "version", code: "CONFLICT" })]);
    const b = await caller.pools.get({ path: "/b" });
    expect(b.version).toBe(2);
    expect((await caller.pools.history({ path: "/b" })).items).toHaveLength(2);
  });

  it("refuses a stale version even when the change itself is fine", async () => {
    await caller.pools.update({ path: "/b", version: 1, config: config("b", cpu(10, 100, 2)) });
    const err = await rejection(
      caller.pools.update({ path: "/b", version: 1, config: config("b", cpu(12, 100)) }),
    );
    expect(err.code).toBe("CONFLICT");
  });
});

describe("every rule reaches the API as a field-level issue, and nothing is written", () => {
  type Case = {
    name: string;
    procedure: "create" | "update" | "delete";
    input: unknown;
    code: string;
    field: string | null;
    trpc?: TRPCError["code"];
  };
  const cases: Case[] = [
    {
      name: "rule 1: the root is never changed",
      procedure: "update",
      input: { path: "/", version: 1, config: config("root") },
      code: "ROOT_IMMUTABLE",
      field: "path",
    },
    {
      name: "rule 1: an unknown kind",
      procedure: "create",
      input: {
        path: "/d",
        config: { name: "d", resources: [{ kind: "tpu", reservation: 1, limit: 1 }] },
      },
      code: "UNKNOWN_KIND",
      field: "resources[0].kind",
    },
    {
      name: "rule 1: a kind listed twice",
      procedure: "create",
      input: { path: "/d", config: config("d", cpu(1, 2), cpu(1, 2)) },
      code: "DUPLICATE_KIND",
      field: "resources[1].kind",
    },
    {
      name: "rule 1: a negative reservation (the schema's check, on the kind's field)",
      procedure: "create",
      input: { path: "/d", config: config("d", cpu(-1, 2)) },
      code: "too_small",
      field: "resources.cpu.reservation",
    },
    {
      name: "rule 1: reservation above its limit",
      procedure: "create",
      input: { path: "/d", config: config("d", cpu(20, 10)) },
      code: "RESERVATION_EXCEEDS_LIMIT",
      field: "resources.cpu.reservation",
    },
    {
      name: "rule 2: a pool is not its own parent",
      procedure: "update",
      input: {
        path: "/b",
        version: 1,
        config: { ...config("b", cpu(10, 100)), parent: "/b" },
      },
      code: "PARENT_IS_SELF",
      field: "parent",
    },
    {
      name: "rule 3: the parent exists",
      procedure: "create",
      input: { path: "/nope/d", config: config("d", cpu(1, 2)) },
      code: "PARENT_NOT_FOUND",
      field: "path",
    },
    {
      name: "rule 3: an update keeps the parent",
      procedure: "update",
      input: {
        path: "/a/y",
        version: 1,
        config: { ...config("y", cpu(5, 100)), parent: "/b" },
      },
      code: "PARENT_CHANGED",
      field: "parent",
    },
    {
      name: "rule 3: the limit fits the parent's",
      procedure: "create",
      input: { path: "/a/z", config: config("z", cpu(0, 200)) },
      code: "LIMIT_EXCEEDS_PARENT_LIMIT",
      field: "resources.cpu.limit",
    },
    {
      name: "rule 4: a unique name among siblings",
      procedure: "create",
      input: { path: "/a/x", config: config("x", cpu(0, 10)) },
      code: "NAME_NOT_UNIQUE",
      field: "name",
    },
    {
      name: "rule 5: the siblings' reservations fit the parent's",
      procedure: "update",
      input: { path: "/a/y", version: 1, config: config("y", cpu(6, 100)) },
      code: "CHILDREN_RESERVATION_EXCEEDS_PARENT",
      field: "resources.cpu.reservation",
    },
    {
      name: "rule 6: controllerLimit.maxPercent ≤ 100",
      procedure: "create",
      input: {
        path: "/d",
        config: { ...config("d", cpu(0, 10)), controllerLimit: { maxPercent: 150 } },
      },
      code: "CONTROLLER_LIMIT_OVER_100",
      field: "controllerLimit.maxPercent",
    },
    {
      name: "create: the file's name is the path's last segment",
      procedure: "create",
      input: { path: "/d", config: config("e", cpu(0, 10)) },
      code: "NAME_MISMATCH_PATH",
      field: "name",
    },
    {
      name: "create: the file names no parent",
      procedure: "create",
      input: { path: "/d", config: { ...config("d", cpu(0, 10)), parent: "/" } },
      code: "PARENT_IN_CONFIG",
      field: "parent",
    },
    {
      name: "update: the name stays (no renames)",
      procedure: "update",
      input: { path: "/b", version: 1, config: config("bee", cpu(10, 100)) },
      code: "NAME_MISMATCH_PATH",
      field: "name",
    },
    {
      name: "delete: only a leaf",
      procedure: "delete",
      input: { path: "/a" },
      code: "NOT_LEAF",
      field: null,
      trpc: "PRECONDITION_FAILED",
    },
    {
      name: "delete: only an idle pool",
      procedure: "delete",
      input: { path: "/a/x" },
      code: "BUSY",
      field: null,
      trpc: "PRECONDITION_FAILED",
    },
    {
      name: "delete: a pool that exists",
      procedure: "delete",
      input: { path: "/nope" },
      code: "POOL_NOT_FOUND",
      field: "path",
      trpc: "NOT_FOUND",
    },
  ];

  it.each(cases)("$name", async (c) => {
    const before = await writes();
    const call = caller.pools[c.procedure] as (input: unknown) => Promise<unknown>;
    const err = await rejection(call(c.input), c.input);
    expect(err.code).toBe(c.trpc ?? "BAD_REQUEST");
    expect(err.issues[0]).toMatchObject({ code: c.code, field: c.field });
    expect(err.issues[0]!.message.length).toBeGreaterThan(10);
    expect(await writes()).toEqual(before);
  });
});

describe("pool rules that keep children and jobs from being stranded (issue 14)", () => {
  it("refuses lowering a parent's reservation below its children's, with the numbers", async () => {
    const before = await writes();
    // /a's children reserve 5 + 5 = 10.
    const err = await rejection(
      caller.pools.update({ path: "/a", version: 1, config: config("a", cpu(8, 100)) }),
    );
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.issues).toEqual([
      {
        field: "resources.cpu.reservation",
        code: "RESERVATION_BELOW_CHILDREN",
        message:
          "/a cpu: reservation 8 is below its children's reservations 10 (/a/x 5 + /a/y 5); lower theirs first",
      },
    ]);
    expect(await writes()).toEqual(before);
  });

  it("refuses a child under a pool with jobs, naming the job", async () => {
    const before = await writes();
    const err = await rejection(
      caller.pools.create({ path: "/a/x/sub", config: config("sub", cpu(0, 10)) }),
    );
    expect(err.code).toBe("PRECONDITION_FAILED");
    expect(err.issues).toEqual([
      {
        field: "path",
        code: "PARENT_HAS_JOBS",
        message:
          "/a/x/sub: /a/x has 1 job (job-in-x); jobs run in leaf pools only, so a pool with jobs cannot get a child pool (its jobs would wait forever): delete them first or choose another parent",
      },
    ]);
    expect(await writes()).toEqual(before);
    // The preview says the same before anyone presses save.
    const preview = await caller.pools.preview({
      action: "create",
      path: "/a/x/sub",
      config: config("sub", cpu(0, 10)),
    });
    expect(preview.issues.map((i) => i.message)).toEqual([err.issues[0]!.message]);
  });
});

describe("pools.preview", () => {
  it("shows every affected pool's entitlement before → after, and writes nothing", async () => {
    const before = await writes();
    const preview = await caller.pools.preview({
      action: "update",
      path: "/b",
      config: config("b", cpu(10, 100, 2)),
    });
    expect(preview.valid).toBe(true);
    const moves = Object.fromEntries(preview.moves.map((m) => [m.path, m]));
    // share 2 of 4: 80 unclaimed → /a 20 + 20, /b 40, /c 20 (was 80/3 each).
    expect(moves["/b"]!.before!.cpu).toBeCloseTo(80 / 3, 9);
    expect(moves["/b"]!.after!.cpu).toBeCloseTo(40, 9);
    expect(moves["/a"]!.after!.cpu).toBeCloseTo(40, 9);
    expect(moves["/c"]!.after!.cpu).toBeCloseTo(20, 9);
    // /a/x: 5 + 15 + (40 − 20)/2.
    expect(moves["/a/x"]!.after!.cpu).toBeCloseTo(30, 9);
    expect(await writes()).toEqual(before);
  });

  it("of a new pool lists it with no before; of a delete, with no after", async () => {
    const created = await caller.pools.preview({
      action: "create",
      path: "/d",
      config: config("d", cpu(0, 100, 1)),
    });
    expect(created.moves.find((m) => m.path === "/d")).toMatchObject({ before: null });
    const deleted = await caller.pools.preview({ action: "delete", path: "/a/y" });
    expect(deleted.valid).toBe(true);
    expect(deleted.moves.find((m) => m.path === "/a/y")).toMatchObject({ after: null });
  });

  it("returns the broken rules as issues instead of numbers", async () => {
    const preview = await caller.pools.preview({
      action: "update",
      path: "/a/y",
      config: config("y", cpu(50, 100)),
    });
    expect(preview).toMatchObject({ valid: false, moves: [] });
    expect(preview.issues).toEqual([
      {
        field: "resources.cpu.reservation",
        code: "CHILDREN_RESERVATION_EXCEEDS_PARENT",
        message:
          "/a/y cpu: reservation 50 (with its sibling pools' 5, 55) exceeds the parent /a's reservation 10 by 45",
      },
    ]);
  });
});

describe("pools.create and pools.delete", () => {
  it("creates a pool and deletes it again, each change in the history with its actor", async () => {
    const created = await caller.pools.create({ path: "/a/y/leaf", config: config("leaf") });
    expect(created).toMatchObject({ path: "/a/y/leaf", version: 1 });
    const deleted = await caller.pools.delete({ path: "/a/y/leaf", version: 1 });
    expect(deleted.path).toBe("/a/y/leaf");
    const history = await caller.pools.history({ path: "/a/y/leaf" });
    expect(history.items.map((i) => [i.action, i.actor])).toEqual([
      ["DELETE", "alice"],
      ["CREATE", "alice"],
    ]);
    expect(history.items[0]!.changes).toContainEqual({
      field: "owningTeam",
      before: "team6",
      after: null,
    });
  });
});

describe("pools.history", () => {
  it("pages newest first with a cursor until the last page", async () => {
    for (let v = 1; v <= 4; v++)
      await caller.pools.update({ path: "/c", version: v, config: config("c", cpu(10 - v, 100)) });
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const p: Awaited<ReturnType<typeof caller.pools.history>> = await caller.pools.history({
        path: "/c",
        limit: 2,
        cursor,
      });
      seen.push(...p.items.map((i) => i.version));
      cursor = p.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    const newest = (await caller.pools.history({ path: "/c", limit: 1 })).items[0]!;
    expect(newest.changes).toEqual([{ field: "resources.cpu.reservation", before: 7, after: 6 }]);
  });
});

describe("pools.entitlementSeries", () => {
  it("starts each range with the value it held, keeps the last sample per bucket, ends now", async () => {
    const b = (await gateway.pools.getByPath("/b"))!;
    const now = Date.now();
    const sample = (minutesAgo: number, entitlement: number) => ({
      poolId: b.id,
      kind: "cpu" as const,
      at: new Date(now - minutesAgo * 60_000),
      entitlement,
      slackEntitlement: 0,
      allocation: 1,
      demand: 2,
      reservation: 10,
      limit: 100,
    });
    await gateway.entitlementSamples.insertMany([sample(90, 11), sample(30, 12), sample(10, 13)]);
    const quarter = await caller.pools.entitlementSeries({ path: "/b", range: "15m" });
    // 15 minutes: starts with the value from 30 minutes ago, then the 10-minute-old sample.
    const values = quarter.kinds.cpu.map((p) => p.entitlement);
    expect(values[0]).toBe(12);
    expect(values).toContain(13);
    expect(values).not.toContain(11);
    expect(quarter.kinds.cpu.at(-1)!.at.getTime()).toBe(quarter.to.getTime());
    const hour = await caller.pools.entitlementSeries({ path: "/b", range: "1h" });
    expect(hour.kinds.cpu[0]!.entitlement).toBe(11);
    expect(hour.bucketMs).toBe(15_000);
    // Pools store samples of every kind when they are created: gpu's line is flat at 0.
    expect(hour.kinds.gpu.every((p) => p.entitlement === 0)).toBe(true);
  });

  it("is NOT_FOUND for a path that names no pool", async () => {
    const err = await rejection(caller.pools.entitlementSeries({ path: "/nope", range: "1h" }));
    expect(err.code).toBe("NOT_FOUND");
  });
});
