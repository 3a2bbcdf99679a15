/**
 * jobs.get's waiting groups say which waits only a change of hosts or pools
 * can end (`resolvable: false`): placement's CAN_NEVER_PLACE and admission's
 * CAN_NEVER_FIT, as the scheduler writes them on the rows.
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
