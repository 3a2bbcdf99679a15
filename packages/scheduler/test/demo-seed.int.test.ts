import { RESOURCE_KINDS } from "@peloton/engine";
import { openGateway } from "@peloton/storage";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { DEMO_POOLS, ensureRootPool, seedDemoData } from "../src/index.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

describe("demo data", () => {
  it("creates the root and the demo tree on an empty database, each pool with its history row", async () => {
    expect(await seedDemoData(gateway)).toEqual({ seeded: true });
    const paths = (await gateway.pools.listAll()).map((p) => p.path);
    expect(paths).toEqual(["/", ...DEMO_POOLS.map((p) => p.path)]);
  });

  it("runs once: a second seed changes nothing", async () => {
    await seedDemoData(gateway);
    const before = await gateway.pools.listAll();
    expect(await seedDemoData(gateway)).toEqual({ seeded: false });
    expect(await gateway.pools.listAll()).toEqual(before);
  });

  it("replicas starting together on an empty database all come up; one of them seeds", async () => {
    // Each replica has its own pool, as separate processes would.
    const replicas = Array.from({ length: 3 }, () =>
      openGateway(inject("databaseUrl"), { max: 2 }),
    );
    try {
      const outcomes = await Promise.all(
        replicas.map(async (g) => {
          await ensureRootPool(g);
          return (await seedDemoData(g)).seeded;
        }),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    } finally {
      await Promise.all(replicas.map((g) => g.close()));
    }
    const paths = (await gateway.pools.listAll()).map((p) => p.path);
    expect(paths).toEqual(["/", ...DEMO_POOLS.map((p) => p.path)]);
  });

  it("never seeds over existing pools", async () => {
    await ensureRootPool(gateway);
    const root = await gateway.pools.getByPath("/");
    await gateway.pools.create(
      { path: "/mine", name: "mine", parentId: root!.id, resources: {} },
      "alice",
    );
    expect(await seedDemoData(gateway)).toEqual({ seeded: false });
    expect((await gateway.pools.listAll()).map((p) => p.path)).toEqual(["/", "/mine"]);
  });

  it("fits the demo tree: children's reservations fit in their parent's", () => {
    for (const parent of DEMO_POOLS) {
      const children = DEMO_POOLS.filter(
        (c) =>
          c.path.startsWith(`${parent.path}/`) &&
          c.path.split("/").length === parent.path.split("/").length + 1,
      );
      for (const kind of RESOURCE_KINDS) {
        const sum = children.reduce((a, c) => a + (c.resources[kind]?.[0] ?? 0), 0);
        expect(sum, `${parent.path} ${kind}`).toBeLessThanOrEqual(parent.resources[kind]?.[0] ?? 0);
      }
    }
  });
});
