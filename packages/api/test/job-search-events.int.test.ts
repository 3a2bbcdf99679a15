/**
 * What the console's job pages read beside jobs.get/list: the job's event
 * timeline (every instance, newest first, by keyset) and the header search
 * finding jobs by name or id and tasks as `<job>/<instance>`.
 */

import { testContext } from "@peloton/test-support/api/context.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { batchYaml } from "./support/jobs.ts";

const ctx = testContext();
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

describe("jobs.events", () => {
  it("pages every instance's events newest first, or one instance's", async () => {
    const pool = await leafPool(ctx.gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 5 }) });
    const first = await caller.jobs.events({ id, limit: 3 });
    expect(first.items.map((e) => e.instanceId)).toEqual([4, 3, 2]);
    expect(first.items[0]).toMatchObject({ state: "PENDING", runId: 1 });
    expect(first.items[0]).not.toHaveProperty("agentId");
    const second = await caller.jobs.events({ id, limit: 3, cursor: first.nextCursor });
    expect(second.items.map((e) => e.instanceId)).toEqual([1, 0]);
    expect(second.nextCursor).toBeNull();

    const one = await caller.jobs.events({ id, instance: 3 });
    expect(one.items.map((e) => e.instanceId)).toEqual([3]);
  });
});

describe("search.query", () => {
  it("finds a job by part of its name or by its id, and a task as <job>/<instance>", async () => {
    const pool = await leafPool(ctx.gateway);
    const { id } = await caller.jobs.create({
      pool,
      yaml: batchYaml({ name: "nightly-etl", instances: 4 }),
    });
    const byName = await caller.search.query({ q: "etl" });
    expect(byName).toContainEqual(
      expect.objectContaining({ kind: "job", label: "nightly-etl", href: `/jobs/${id}` }),
    );
    const byId = await caller.search.query({ q: id });
    expect(byId.map((h) => h.href)).toEqual([`/jobs/${id}`]);

    expect(await caller.search.query({ q: "nightly/2" })).toEqual([
      expect.objectContaining({
        kind: "task",
        label: "nightly-etl/2",
        href: `/jobs/${id}/tasks/2`,
      }),
    ]);
    expect(await caller.search.query({ q: `${id}/3` })).toHaveLength(1);
    // Instance 4 does not exist (0 to 3), and a pool path is never read as a task.
    expect(await caller.search.query({ q: "nightly/4" })).toEqual([]);
    expect((await caller.search.query({ q: "/batch" })).map((h) => h.kind)).toEqual(["pool"]);
  });
});
