/**
 * An unplaced task that no change of allocation can place (the engine's
 * `resolvable: false`) is written as CAN_NEVER_PLACE with "this will never
 * fit on these hosts", not as a wait; when the hosts change it runs.
 */
import { SIM_DURATION_KEY } from "@peloton/mesos";
import {
  agent,
  allIn,
  leafPool,
  ROOMY,
  startSystem,
  submit,
  tasksOf,
} from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

describe("why pending when it will never fit", () => {
  it("a constraint no host meets says so, and a host that meets it ends the wait", async () => {
    const { sim } = await startSystem([agent("a-1.test"), agent("a-2.test")]);
    const pool = await leafPool(gateway, "web", ROOMY);
    const job = await submit(gateway, pool, {
      name: "in-c",
      instanceCount: 1,
      labels: [{ key: SIM_DURATION_KEY, value: "600000" }],
      defaultConfig: {
        resource: { cpuLimit: 1, memLimitMb: 64 },
        command: { value: "sleep 600" },
        constraint: {
          type: "LABEL_CONSTRAINT",
          labelConstraint: {
            kind: "HOST",
            condition: "EQUAL",
            requirement: 1,
            label: { key: "zone", value: "c" },
          },
        },
      },
    });
    await expect
      .poll(async () => (await tasksOf(job))[0], { timeout: 10_000 })
      .toMatchObject({
        // Admitted (READY in the leader's memory); the row waits PENDING and says why.
        state: "PENDING",
        reason: "CAN_NEVER_PLACE",
        message: "this will never fit on these hosts: 2 hosts mismatch constraint zone = c",
      });
    await sim.addAgent({
      hostname: "c-1.test",
      resources: { cpus: 4, mem: 8192, disk: 100_000 },
      attributes: { zone: "c" },
    });
    await allIn(job, "RUNNING");
    expect((await tasksOf(job))[0]!.hostname).toBe("c-1.test");
  });
});
