/**
 * The audit router on the scratch database: mutations made through the API
 * (pools, hosts) leave one row each, in their own transaction, and the log
 * reads newest first with filters and keyset pages.
 */

import { ensureRootPool } from "@peloton/scheduler";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { givenHost } from "./support/cluster.ts";

const alice = testContext(testActor({ login: "alice", displayName: "Alice" }));
const bob = testContext(testActor({ login: "bob", displayName: "Bob" }));
const asAlice = createCaller(alice);
const asBob = createCaller(bob);
afterAll(async () => {
  await alice.close();
  await bob.close();
});

const team = (name: string, reservation: number) => ({
  name,
  resources: [{ kind: "cpu", reservation, limit: 50, share: 1 }],
});

beforeEach(async () => {
  await resetDatabase();
  await ensureRootPool(alice.gateway);
  await givenHost(alice.gateway, "h1", { cpu: 100 });
  await asAlice.pools.create({ path: "/web", config: team("web", 10) });
  await asBob.pools.create({ path: "/batch", config: team("batch", 10) });
  const web = await asAlice.pools.get({ path: "/web" });
  await asAlice.pools.update({ path: "/web", version: web.version, config: team("web", 12) });
  await asBob.hosts.startMaintenance({ hostname: "h1", reason: "kernel upgrade" });
});

describe("audit.list", () => {
  it("has one row per mutation, newest first, with who, what and before/after", async () => {
    const { items, nextCursor } = await asAlice.audit.list({});
    expect(items.map((e) => [e.actor, e.action, e.targetId])).toEqual([
      ["bob", "host.startMaintenance", "h1"],
      ["alice", "pool.update", "/web"],
      ["bob", "pool.create", "/batch"],
      ["alice", "pool.create", "/web"],
    ]);
    expect(nextCursor).toBeNull();
    const update = items[1]!;
    expect(update.targetType).toBe("pool");
    expect(update.before).toMatchObject({ resources: { cpu: { reservation: 10 } } });
    expect(update.after).toMatchObject({ resources: { cpu: { reservation: 12 } } });
  });

  it.each([
    ["an actor", { actor: "bob" }, ["host.startMaintenance", "pool.create"]],
    ["an action", { action: "pool.update" }, ["pool.update"]],
    ["an action family", { action: "pool." }, ["pool.update", "pool.create", "pool.create"]],
    ["a target type", { targetType: "host" }, ["host.startMaintenance"]],
    ["part of a target", { target: "WEB" }, ["pool.update", "pool.create"]],
    ["a time range that holds nothing", { since: "2000-01-01", until: "2000-01-02" }, []],
  ])("filters by %s", async (_, filter, actions) => {
    const { items } = await asAlice.audit.list(filter);
    expect(items.map((e) => e.action)).toEqual(actions);
  });

  it("pages by keyset: each page continues where the last ended, nothing twice", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof asAlice.audit.list>> = await asAlice.audit.list({
        limit: 3,
        cursor,
      });
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
  });

  it("refuses a malformed action and an inverted range, naming the field", async () => {
    await expect(asAlice.audit.list({ action: "DROP TABLE" })).rejects.toThrow(/action/);
    await expect(asAlice.audit.list({ since: "2026-01-02", until: "2026-01-01" })).rejects.toThrow(
      /since must come before until/,
    );
  });
});

describe("audit.facets", () => {
  it("offers the actors, actions and target types seen", async () => {
    expect(await asAlice.audit.facets()).toEqual({
      actors: ["alice", "bob"],
      actions: ["host.startMaintenance", "pool.create", "pool.update"],
      targetTypes: ["host", "pool"],
    });
  });
});
