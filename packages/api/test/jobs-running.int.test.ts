/**
 * The API on a running system (mesos-sim, the real scheduler runtime,
 * PostgreSQL): a job submitted as Peloton YAML through `jobs.create` runs,
 * its instances and events read back through `tasks.*`, its stdout through
 * `tasks.logs` and `tasks.logsFollow`; a pool without room says why.
 */

import { testContext } from "@peloton/test-support/api/context.ts";
import { agent, leafPool, ROOMY, startSystem } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { batchYaml } from "./support/jobs.ts";

const ctx = testContext();
const { gateway } = ctx;
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

describe("jobs through the API on a running system", () => {
  it("a YAML batch job runs to SUCCEEDED; tasks.list, events and each instance's stdout read back", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    const pool = await leafPool(gateway, "batch", ROOMY);
    const { id } = await caller.jobs.create({
      pool,
      yaml: batchYaml({ instances: 5, command: "echo hello from $PELOTON_INSTANCE_ID" }),
    });
    await expect
      .poll(async () => (await caller.jobs.get({ id })).state, { timeout: 20_000 })
      .toBe("SUCCEEDED");
    const job = await caller.jobs.get({ id });
    expect(job.taskStats).toEqual({ SUCCEEDED: 5 });
    expect(job.waiting).toEqual([]);
    const tasks = await caller.tasks.list({ jobId: id, states: ["SUCCEEDED"] });
    expect(tasks.items.map((t) => t.instanceId)).toEqual([0, 1, 2, 3, 4]);
    expect(
      tasks.items.every((t) => t.hostname?.endsWith(".test") && t.startedAt && t.finishedAt),
    ).toBe(true);

    const task = await caller.tasks.get({ jobId: id, instance: 3 });
    expect(task.runs).toEqual([
      expect.objectContaining({ runId: 1, state: "SUCCEEDED", hostname: task.hostname }),
    ]);
    const log = await caller.tasks.logs({ jobId: id, instance: 3 });
    expect(log).toMatchObject({
      run: 1,
      file: "stdout",
      data: "hello from 3\n",
      offset: 0,
      finished: true,
    });
    const followed: string[] = [];
    for await (const m of await caller.tasks.logsFollow({ jobId: id, instance: 3, offset: 0 })) {
      followed.push(m.kind === "chunk" ? m.data : m.kind);
    }
    expect(followed).toEqual(["hello from 3\n", "end"]);
  });

  it("a job whose pool has no room stays PENDING, and jobs.get says why", async () => {
    await startSystem([agent("a1.test")]);
    // A STATIC sibling keeps all but half of the agent's 4 cores, so /tiny is
    // entitled to 0.5: its 1-core tasks wait for room. (Its limit, 1, lets
    // them fit one day: a pool whose limit is below a task refuses the job.)
    await leafPool(gateway, "hog", {
      cpu: { reservation: 3.5, limit: 3.5, share: 1, type: "STATIC" },
    });
    const pool = await leafPool(gateway, "tiny", {
      cpu: { reservation: 0.5, limit: 1, share: 1 },
      memory: { reservation: 1024, limit: 1024, share: 1 },
    });
    const { id } = await caller.jobs.create({ pool, yaml: batchYaml({ instances: 3, cpu: 1 }) });
    await expect
      .poll(async () => (await caller.jobs.get({ id })).waiting, { timeout: 10_000 })
      .toEqual([
        expect.objectContaining({ reason: "BEHIND_BLOCKED_GANG", tasks: 2 }),
        expect.objectContaining({
          reason: "POOL_OVER_ENTITLEMENT",
          tasks: 1,
          message:
            "1st in pool /tiny's pending queue: pool /tiny has too little cpu entitlement left: 0 of 0.5 cores allocated, this task needs 1",
        }),
      ]);
    const [first] = (await caller.tasks.list({ jobId: id, limit: 1 })).items;
    expect(first!.state).toBe("PENDING");
    expect(first!.message).toMatch(
      /^1st in pool \/tiny's pending queue: pool \/tiny .*entitlement/,
    );
  });
});
