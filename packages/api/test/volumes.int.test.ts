/**
 * The volumes router (console `/volumes`) and the volume on `tasks.get`,
 * against the scratch database: a stateful service submitted through the
 * API, its volumes pinned and created the way the placement loop does.
 */

import { testContext } from "@peloton/test-support/api/context.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller, issuesOf } from "../src/index.ts";
import { givenHost } from "./support/cluster.ts";

const ctx = testContext();
const { gateway } = ctx;
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

function statefulYaml(name: string, instances: number): string {
  return `name: ${name}
type: SERVICE
instanceCount: ${instances}
defaultConfig:
  resource: { cpuLimit: 0.5, memLimitMb: 64, diskLimitMb: 16 }
  command: { value: "sleep 600" }
  volume: { containerPath: /var/lib/${name}, sizeMB: 2048 }
`;
}

/** Submits the job and pins each instance's volume, instance i on host h<i % 2>; 0 is created. */
async function placedStatefulJob(name: string, instances: number): Promise<string> {
  const pool = await leafPool(gateway, "stateful");
  const { id } = await caller.jobs.create({ pool, yaml: statefulYaml(name, instances) });
  const tasks = await caller.tasks.list({ jobId: id });
  await gateway.volumes.pin(
    tasks.items.map((t) => ({
      id: `${id}-${t.instanceId}`,
      jobId: id,
      instanceId: t.instanceId,
      taskId: t.id,
      hostname: `h${t.instanceId % 2}`,
      agentId: `agent-h${t.instanceId % 2}`,
      sizeMb: 2048,
      containerPath: `/var/lib/${name}`,
    })),
  );
  await gateway.volumes.markCreated([`${id}-0`]);
  return id;
}

describe("a host's disk with volumes", () => {
  it("keeps the machine's total and counts a created volume as used (the search finds volumes too)", async () => {
    // The cluster reports a created volume's disk apart from the agent's free disk.
    await givenHost(gateway, "h0", { cpu: 8, memMb: 8192, diskMb: 100_000 - 2048 });
    const id = await placedStatefulJob("ledger", 1);
    const host = await caller.hosts.get({ hostname: "h0" });
    expect(host).toMatchObject({ diskMb: 100_000, volumesMb: 2048 });
    expect(host.allocated.diskMb).toBe(2048);
    const summary = await caller.overview.summary();
    expect(summary.capacity.disk).toBe(100_000);
    expect(summary.allocation.disk).toBe(2048);
    expect(await caller.search.query({ q: `${id}-0` })).toContainEqual(
      expect.objectContaining({ kind: "volume", href: `/jobs/${id}/tasks/0` }),
    );
  });
});

describe("volumes.list", () => {
  it("lists a stateful job's volumes with the job's name, without the agent id", async () => {
    const id = await placedStatefulJob("ledger", 3);
    const page = await caller.volumes.list({});
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((v) => [v.instanceId, v.hostname, v.state])).toEqual([
      [0, "h0", "CREATED"],
      [1, "h1", "INITIALIZED"],
      [2, "h0", "INITIALIZED"],
    ]);
    expect(page.items[0]).toMatchObject({
      id: `${id}-0`,
      jobId: id,
      jobName: "ledger",
      sizeMb: 2048,
      containerPath: "/var/lib/ledger",
    });
    expect(page.items[0]).not.toHaveProperty("agentId");
  });

  it("filters by host, job and state, pages by cursor, and offers hosts and jobs to pick", async () => {
    const ledger = await placedStatefulJob("ledger", 3);
    const first = await caller.volumes.list({ host: "h0", jobId: ledger, limit: 1 });
    const second = await caller.volumes.list({
      host: "h0",
      jobId: ledger,
      limit: 1,
      cursor: first.nextCursor,
    });
    expect([...first.items, ...second.items].map((v) => v.instanceId)).toEqual([0, 2]);
    expect(second.nextCursor).toBeNull();
    const initialized = await caller.volumes.list({ states: ["INITIALIZED"], sort: "host" });
    expect(initialized.items.map((v) => v.instanceId)).toEqual([2, 1]);
    expect(await caller.volumes.facets()).toEqual({
      hosts: [
        { hostname: "h0", volumes: 2 },
        { hostname: "h1", volumes: 1 },
      ],
      jobs: [{ id: ledger, name: "ledger", volumes: 3 }],
    });
  });

  it("refuses a job id that is not a UUID, naming the field", async () => {
    const err = await caller.volumes.list({ jobId: "ledger" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("BAD_REQUEST");
    expect(issuesOf((err as TRPCError).cause, { jobId: "ledger" })).toEqual([
      expect.objectContaining({ field: "jobId", message: "a job id is a UUID" }),
    ]);
  });
});

describe("tasks.get", () => {
  it("shows the instance's volume once it is pinned, and null before", async () => {
    const pool = await leafPool(gateway, "other");
    const { id: plain } = await caller.jobs.create({ pool, yaml: statefulYaml("fresh", 1) });
    expect((await caller.tasks.get({ jobId: plain, instance: 0 })).volume).toBeNull();
    const ledger = await placedStatefulJob("ledger", 2);
    expect((await caller.tasks.get({ jobId: ledger, instance: 1 })).volume).toMatchObject({
      id: `${ledger}-1`,
      hostname: "h1",
      state: "INITIALIZED",
      sizeMb: 2048,
    });
  });
});
