/**
 * The edge defers the actor's lookup to the first procedure that needs
 * someone signed in (context.ts `lookUpActor`): a public procedure never
 * looks, and a database that cannot be reached during the lookup is answered
 * as every other outage (503), not as an internal error.
 */
import { createDb } from "@peloton/storage";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "../src/root.ts";

const ctx = testContext();
const unreachable = createDb("postgres://postgres@127.0.0.1:1/peloton");
afterAll(async () => {
  await unreachable.$disconnect();
  await ctx.close();
});

describe("the deferred actor lookup", () => {
  it("is not asked by the health probe, and is asked once by what needs sign-in", async () => {
    let lookups = 0;
    const caller = createCaller({
      ...ctx,
      actor: null,
      lookUpActor: async () => {
        lookups += 1;
        return testActor();
      },
    });
    await caller.system.health();
    expect(lookups).toBe(0);
    expect((await caller.system.whoami()).login).toBe("alice");
    expect(lookups).toBe(1);
  });

  it("answers 503 when the database cannot be reached to look the actor up", async () => {
    const caller = createCaller({
      ...ctx,
      actor: null,
      lookUpActor: async () => {
        await unreachable.$queryRaw`SELECT 1`;
        return null;
      },
    });
    await expect(caller.pools.tree()).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  it("answers 401 when nobody is signed in", async () => {
    const caller = createCaller({ ...ctx, actor: null, lookUpActor: async () => null });
    await expect(caller.pools.tree()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
