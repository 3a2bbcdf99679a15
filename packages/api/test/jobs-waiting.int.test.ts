/**
 * jobs.get's waiting groups say which waits only a change of hosts or pools
 * can end (`resolvable: false`): placement's CAN_NEVER_PLACE and admission's
 * CAN_NEVER_FIT, as the scheduler writes them on the rows. jobs.list gives
 * each job's first waiting instance's reason, for the jobs page's rows.
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

describe("jobs.get: why pending", () => {
  it("marks the reasons no change of allocation resolves", async () => {
    const pool = await leafPool(ctx.gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 4 }) });
    // The notes the placement and admission loops write (through the same repository).
    const reasons = ["CAN_NEVER_PLACE", "CAN_NEVER_FIT", "NO_HOST_FITS", "NO_HOST_FITS"];
    const { items } = await caller.tasks.list({ jobId: id });
    const { missed } = await ctx.gateway.taskChanges.apply(
      items.map((t) => ({
        taskId: t.id,
        jobId: id,
        instanceId: t.instanceId,
        expect: { state: "PENDING", runId: t.runId },
        state: "PENDING",
        reason: reasons[t.instanceId]!,
        message: "why",
        events: [],
      })),
    );
    expect(missed).toEqual([]);
    const { waiting } = await caller.jobs.get({ id });
    const byReason = Object.fromEntries(waiting.map((w) => [w.reason, [w.tasks, w.resolvable]]));
    expect(byReason).toEqual({
      NO_HOST_FITS: [2, true],
      CAN_NEVER_PLACE: [1, false],
      CAN_NEVER_FIT: [1, false],
    });
    // A reader that never shows them (Peloton's API) skips their aggregate.
    expect((await caller.jobs.get({ id, waiting: false })).waiting).toEqual([]);
  });
});

describe("jobs.list: why each job's instances wait", () => {
  const PLACES = ["1st", "2nd", "3rd"];
  it("gives each waiting job its first waiting instance's reason, on request", async () => {
    const pool = await leafPool(ctx.gateway);
    const waits = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 3 }) });
    const never = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 1 }) });
    const note = async (jobId: string, reason: (instance: number) => string) => {
      const { items } = await caller.tasks.list({ jobId });
      const { missed } = await ctx.gateway.taskChanges.apply(
        items.map((t) => ({
          taskId: t.id,
          jobId,
          instanceId: t.instanceId,
          expect: { state: "PENDING", runId: t.runId },
          state: "PENDING",
          reason: reason(t.instanceId),
          message: `${PLACES[t.instanceId]} in pool ${pool}'s pending queue: ${reason(t.instanceId)}`,
          events: [],
        })),
      );
      expect(missed).toEqual([]);
    };
    // Instance 0 is first in line; the others' reasons are on the job page.
    await note(waits.id, (i) => (i === 0 ? "ENTITLEMENT" : "NO_HOST_FITS"));
    await note(never.id, () => "CAN_NEVER_FIT");

    const { items } = await caller.jobs.list({ pool, waiting: true });
    const byId = Object.fromEntries(items.map((j) => [j.id, j.firstWaiting]));
    expect(byId[waits.id]).toEqual({
      reason: "ENTITLEMENT",
      message: `1st in pool ${pool}'s pending queue: ENTITLEMENT`,
      resolvable: true,
    });
    expect(byId[never.id]).toMatchObject({ reason: "CAN_NEVER_FIT", resolvable: false });
    // Unasked (the CLI, Peloton's API), nothing is looked up.
    const plain = await caller.jobs.list({ pool });
    expect(plain.items.map((j) => j.firstWaiting)).toEqual([null, null]);
  });

  it("has none for a job with no instance waiting", async () => {
    const pool = await leafPool(ctx.gateway);
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 1 }) });
    const { items } = await caller.tasks.list({ jobId: id });
    const { missed } = await ctx.gateway.taskChanges.apply([
      {
        taskId: items[0]!.id,
        jobId: id,
        instanceId: 0,
        expect: { state: "PENDING", runId: items[0]!.runId },
        state: "KILLED",
        reason: "KILLED_BY_USER",
        message: "stopped",
        events: [],
      },
    ]);
    expect(missed).toEqual([]);
    const listed = await caller.jobs.list({ pool, waiting: true });
    expect(listed.items.map((j) => j.firstWaiting)).toEqual([null]);
  });
});
