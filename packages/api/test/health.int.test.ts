/**
 * Health as the console's Next server sees it: through PostgreSQL only (the
 * lease row and the framework row), with this replica named by PELOTON_REPLICA.
 */
import { openGateway } from "@peloton/storage";
import { testContext } from "@peloton/test-support/api/context.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { readHealth } from "../src/health.ts";
import { createCaller } from "../src/index.ts";

const ctx = testContext();
const { gateway } = ctx;
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

describe("health", () => {
  it("no lease yet: reachable, nobody leads, nothing subscribed", async () => {
    expect(await readHealth(gateway, "box:1")).toMatchObject({
      ok: true,
      database: { reachable: true, error: null },
      replica: "box:1",
      leads: false,
      scheduler: { running: false, leader: null },
      cluster: { subscribed: false },
    });
  });

  it("this replica leads while its lease is fresh; the cluster is subscribed once the leader saved its framework", async () => {
    await gateway.cluster.recordLease("scheduler", "box:1");
    expect(await readHealth(gateway, "box:1")).toMatchObject({
      leads: true,
      scheduler: { running: true, leader: "box:1" },
      cluster: { subscribed: false },
    });
    expect((await readHealth(gateway, "box:2")).leads).toBe(false);
    await gateway.cluster.saveFramework("peloton", "fw-1", "http://m:5050");
    expect((await readHealth(gateway, "box:1")).cluster).toEqual({
      subscribed: true,
      frameworkId: "fw-1",
      masterUrl: "http://m:5050",
    });
    // Renewals stopped 10 s ago: no scheduler runs, whatever the row says.
    const later = () => Date.now() + 10_000;
    expect(await readHealth(gateway, "box:1", later)).toMatchObject({
      leads: false,
      scheduler: { running: false, leader: null },
      cluster: { subscribed: false },
    });
  });

  it("an unreachable database is reported, not thrown; the procedure answers SERVICE_UNAVAILABLE", async () => {
    const dead = openGateway("postgres://postgres@127.0.0.1:1/nowhere", { max: 1 });
    try {
      const report = await readHealth(dead, "box:1");
      expect(report).toMatchObject({ ok: false, database: { reachable: false } });
      expect(report.database.error).toMatch(/reach|ECONNREFUSED/);
      const caller = createCaller({ ...ctx, gateway: dead });
      await expect(caller.system.health()).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    } finally {
      await dead.close();
    }
  });

  it("the procedure answers the report while the database is up", async () => {
    const caller = createCaller(ctx);
    expect(await caller.system.health()).toMatchObject({ ok: true, leads: false });
  });
});
