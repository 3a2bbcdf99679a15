import { seedDemoData } from "@peloton/scheduler";
import { testContext } from "@peloton/test-support/api/context.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";

const ctx = testContext();
const { gateway } = ctx;
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

describe("overview.summary", () => {
  it("reports what the database holds: pools in tree order, zero jobs, tasks and hosts", async () => {
    await seedDemoData(gateway);
    const s = await caller.overview.summary();
    expect(s.pools).toBe(8);
    expect(s.poolList.map((p) => p.path)).toContain("/infra/batch");
    expect(s.poolList.find((p) => p.path === "/infra/batch")).toMatchObject({
      name: "batch",
      depth: 2,
    });
    expect(s).toMatchObject({ jobs: 0, tasks: 0, hosts: 0 });
  });
});

describe("search.query", () => {
  it("finds pools by part of their path and links to them", async () => {
    await seedDemoData(gateway);
    const hits = await caller.search.query({ q: "train" });
    expect(hits).toEqual([
      {
        kind: "pool",
        label: "/ml/training",
        detail: "pool · ml-platform",
        href: "/pools/ml/training",
        target: { type: "pool", path: "/ml/training" },
      },
    ]);
  });

  it("rejects an empty query with a field error", async () => {
    await expect(caller.search.query({ q: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("system.whoami", () => {
  it("returns the acting identity from the context", async () => {
    expect(await caller.system.whoami()).toMatchObject({ login: "alice", displayName: "Alice" });
  });
});
