/**
 * Peloton's newer v0 spellings — job.svc.JobService, task.svc.TaskService,
 * respool.svc.ResourcePoolService — over gRPC on a running system: the
 * same operations as JobManager, TaskManager and ResourceManager (shared
 * code), with their own request and answer messages; bad requests refused
 * with the field named and nothing stored.
 */

import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { agent, leafPool, startSystem } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JobConfigSchema, JobState, JobType } from "../src/generated/peloton/api/v0/job/job_pb.ts";
import { JobService } from "../src/generated/peloton/api/v0/job/svc/job_svc_pb.ts";
import { ResourcePoolService } from "../src/generated/peloton/api/v0/respool/svc/respool_svc_pb.ts";
import { TaskService } from "../src/generated/peloton/api/v0/task/svc/task_svc_pb.ts";
import { TaskState } from "../src/generated/peloton/api/v0/task/task_pb.ts";
import { UpdateService } from "../src/generated/peloton/api/v0/update/svc/update_svc_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

const POOL_RESOURCES = [
  { kind: "cpu", reservation: 4, limit: 8, share: 1 },
  { kind: "memory", reservation: 4096, limit: 8192, share: 1 },
  { kind: "disk", reservation: 10_000, limit: 100_000, share: 1 },
];

function config(type = JobType.BATCH, command = "echo hi") {
  return create(JobConfigSchema, {
    name: "hello",
    type,
    instanceCount: 2,
    sla: { priority: 5, preemptible: true },
    defaultConfig: { resource: { cpuLimit: 0.5, memLimitMb: 64 }, command: { value: command } },
  });
}

describe("v0 JobService, TaskService and ResourcePoolService over gRPC", () => {
  it("creates a pool and a job, reads them, lists tasks until they succeed, queries and deletes", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    await served.context.gateway.pools.create(
      { path: "/", name: "root", parentId: null, resources: {} },
      "test",
    );
    const pools = grpcClient(served, ResourcePoolService);
    const jobs = grpcClient(served, JobService);
    const tasks = grpcClient(served, TaskService);

    const pool = await pools.createResourcePool({
      config: { name: "svc", resources: POOL_RESOURCES },
    });
    expect(pool.id?.value).toBe("/svc");
    const got = await pools.getResourcePool({ id: { value: "/svc" } });
    expect(got.resPool?.config?.name).toBe("svc");
    expect((await pools.queryResourcePools({})).resPools.map((p) => p.path?.value)).toEqual([
      "/svc",
    ]);
    expect((await pools.lookupResourcePoolID({ path: { value: "/svc" } })).id?.value).toBe("/svc");

    // The pool named by the request (`peloton job create <pool>`), not by the config.
    const created = await jobs.createJob({ pool: { value: "/svc" }, config: config() });
    const id = { value: created.jobId?.value ?? "" };
    const read = await jobs.getJob({ id });
    expect(read.result).toMatchObject({
      name: "hello",
      instanceCount: 2,
      respoolID: { value: "/svc" },
    });

    await expect
      .poll(
        async () =>
          Object.values((await tasks.listTasks({ jobId: id })).tasks).map((t) => t.runtime?.state),
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([TaskState.SUCCEEDED, TaskState.SUCCEEDED]);
    expect((await tasks.getTask({ jobId: id, instanceId: 1 })).result?.instanceId).toBe(1);
    const queried = await tasks.queryTasks({
      jobId: id,
      spec: { taskStates: [TaskState.SUCCEEDED] },
      pagination: { limit: 1 },
    });
    expect(queried.records).toHaveLength(1);
    const events = await tasks.getPodEvents({ jobId: id, instanceId: 0 });
    expect(events.result.at(-1)?.actualState).toBe("SUCCEEDED");

    await expect
      .poll(async () => {
        const found = await jobs.queryJobs({ spec: { name: "hello" } });
        return found.records.map((j) => [j.id?.value, j.runtime?.state]);
      })
      .toEqual([[id.value, JobState.SUCCEEDED]]);

    await jobs.deleteJob({ id });
    expect(served.internalErrors).toEqual([]);
  });

  it("restarts a SERVICE job in batches through the update workflow (RestartJob's updateID)", async () => {
    const pool = await leafPool(served.context.gateway, "web");
    const jobs = grpcClient(served, JobService);
    const created = await jobs.createJob({
      pool: { value: pool },
      config: config(JobType.SERVICE, "sleep 600"),
    });
    const id = { value: created.jobId?.value ?? "" };
    const restarted = await jobs.restartJob({ id, restartConfig: { batchSize: 1 } });
    expect(restarted.updateID?.value).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await grpcClient(served, UpdateService).listUpdates({ jobID: id });
    expect(listed.updateInfo.map((u) => u.updateId?.value)).toEqual([restarted.updateID?.value]);

    const ranged = await refusal(
      jobs.restartJob({ id, ranges: [{ from: 0, to: 1 }], restartConfig: { batchSize: 1 } }),
    );
    expect(ranged.code).toBe(Code.Unimplemented);
    expect(ranged.message).toMatch(/^ranges: /);
  });

  it("refuses a bad job, a bad pool and a bad pool id with the field named, and stores nothing", async () => {
    const pool = await leafPool(served.context.gateway, "batch");
    const bad = config();
    bad.name = "";
    const job = await refusal(
      grpcClient(served, JobService).createJob({ pool: { value: pool }, config: bad }),
    );
    expect(job.code).toBe(Code.InvalidArgument);
    expect(job.message).toContain("config.name: ");
    expect(await directSql("SELECT id FROM jobs")).toEqual([]);

    const pools = grpcClient(served, ResourcePoolService);
    const badPool = await refusal(
      pools.createResourcePool({
        config: { name: "x", resources: [{ kind: "cpu", reservation: 5, limit: 1, share: 1 }] },
      }),
    );
    expect(badPool.code).toBe(Code.InvalidArgument);
    expect(badPool.message).toContain("config.resources.cpu");
    expect(await directSql("SELECT id FROM resource_pools WHERE path = '/x'")).toEqual([]);

    const badId = await refusal(pools.deleteResourcePool({ id: { value: "batch" } }));
    expect(badId.code).toBe(Code.InvalidArgument);
    expect(badId.message).toMatch(/^id\.value: /);
    const chosen = await refusal(
      pools.createResourcePool({ id: { value: "/y" }, config: { name: "y" } }),
    );
    expect(chosen.code).toBe(Code.Unimplemented);
    expect(await directSql("SELECT id FROM resource_pools WHERE path = '/y'")).toEqual([]);
    expect(served.internalErrors).toEqual([]);
  });
});
