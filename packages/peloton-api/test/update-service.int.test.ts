/**
 * UpdateService and JobManager.Update over gRPC against the scratch
 * database (no leader runs, so an update stays where its actions put it):
 * a SERVICE job's update created, read, listed, paused, resumed and
 * aborted; a BATCH job's update and bad options refused with the field
 * named and nothing stored.
 */

import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  JobConfigSchema,
  JobManager,
  JobType,
} from "../src/generated/peloton/api/v0/job/job_pb.ts";
import { UpdateService } from "../src/generated/peloton/api/v0/update/svc/update_svc_pb.ts";
import { State } from "../src/generated/peloton/api/v0/update/update_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi, TOKEN } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

function jobConfig(type: JobType, command = "sleep 600", seenVersion = 0n) {
  return create(JobConfigSchema, {
    ...(seenVersion ? { changeLog: { version: seenVersion } } : {}),
    name: "web",
    type,
    instanceCount: 2,
    respoolID: { value: "/web" },
    sla: { priority: 1 },
    defaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 32 }, command: { value: command } },
  });
}

async function job(type: JobType): Promise<string> {
  await leafPool(served.context.gateway, "web");
  const created = await grpcClient(served, JobManager).create({ config: jobConfig(type) });
  return created.jobId?.value ?? "";
}

async function stored() {
  const [r] = await directSql<{ updates: number; versions: number }>(
    `SELECT (SELECT count(*) FROM job_updates)::int AS updates,
            (SELECT count(*) FROM job_config_versions)::int AS versions`,
  );
  return r;
}

describe("UpdateService over gRPC", () => {
  it("creates a SERVICE job's update, reads and lists it, pauses, resumes and aborts it", async () => {
    const id = await job(JobType.SERVICE);
    const updates = grpcClient(served, UpdateService);
    const newConfig = jobConfig(JobType.SERVICE, "sleep 601", 1n);
    const created = await updates.createUpdate({
      jobId: { value: id },
      jobConfig: newConfig,
      updateConfig: { batchSize: 1, maxInstanceAttempts: 3 },
    });
    const updateId = { value: created.updateID?.value ?? "" };
    expect(updateId.value).toMatch(/^[0-9a-f-]{36}$/);

    const got = (await updates.getUpdate({ updateId })).updateInfo;
    expect(got).toMatchObject({
      updateId,
      jobId: { value: id },
      configVersion: 2n,
      prevConfigVersion: 1n,
      config: { batchSize: 1, maxInstanceAttempts: 3 },
      status: { state: State.INITIALIZED, numTasksDone: 0, numTasksRemaining: 2 },
    });
    expect((await updates.getUpdate({ updateId, statusOnly: true })).updateInfo?.config).toBe(
      undefined,
    );
    const listed = await updates.listUpdates({ jobID: { value: id } });
    expect(listed.updateInfo.map((u) => u.updateId?.value)).toEqual([updateId.value]);

    const state = async () => (await updates.getUpdate({ updateId })).updateInfo?.status?.state;
    await updates.pauseUpdate({ updateId });
    expect(await state()).toBe(State.PAUSED);
    await updates.resumeUpdate({ updateId });
    expect(await state()).toBe(State.ROLLING_FORWARD);
    await updates.abortUpdate({ updateId });
    expect(await state()).toBe(State.ABORTED);

    const again = await refusal(updates.pauseUpdate({ updateId }));
    expect(again.code).toBe(Code.FailedPrecondition);
    expect(again.message).toContain("updateId: ");

    // The job reads as its new config (version 2).
    const info = (await grpcClient(served, JobManager).get({ id: { value: id } })).jobInfo;
    expect(info?.config?.defaultConfig?.command?.value).toBe("sleep 601");
    expect(info?.runtime?.configurationVersion).toBe(2n);
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a BATCH job's update, naming jobId, and stores nothing", async () => {
    const id = await job(JobType.BATCH);
    const answer = await refusal(
      grpcClient(served, UpdateService).createUpdate({
        jobId: { value: id },
        jobConfig: jobConfig(JobType.BATCH, "sleep 601"),
        updateConfig: { batchSize: 1 },
      }),
    );
    expect(answer.code).toBe(Code.InvalidArgument);
    expect(answer.message).toMatch(/^jobId: .*BATCH job/);
    expect(await stored()).toEqual({ updates: 0, versions: 1 });
  });

  it("refuses bad options and a stale changeLog version with Peloton's field named, and stores nothing", async () => {
    const id = await job(JobType.SERVICE);
    const updates = grpcClient(served, UpdateService);
    const noBatch = await refusal(
      updates.createUpdate({
        jobId: { value: id },
        jobConfig: jobConfig(JobType.SERVICE, "sleep 601"),
        updateConfig: {},
      }),
    );
    expect(noBatch.code).toBe(Code.InvalidArgument);
    expect(noBatch.message).toMatch(/^updateConfig\.batchSize: /);

    const stale = jobConfig(JobType.SERVICE, "sleep 601", 7n);
    const moved = await refusal(
      updates.createUpdate({
        jobId: { value: id },
        jobConfig: stale,
        updateConfig: { batchSize: 1 },
      }),
    );
    expect([moved.code, served.internalErrors]).toEqual([Code.Aborted, []]);
    expect(moved.message).toMatch(/^jobConfig\.changeLog\.version: /);

    const badConfig = jobConfig(JobType.SERVICE);
    badConfig.name = "";
    const unnamed = await refusal(
      updates.createUpdate({
        jobId: { value: id },
        jobConfig: badConfig,
        updateConfig: { batchSize: 1 },
      }),
    );
    expect(unnamed.code).toBe(Code.InvalidArgument);
    expect(unnamed.message).toContain("jobConfig.name: ");

    const badId = await refusal(updates.getUpdate({ updateId: { value: "nope" } }));
    expect(badId).toMatchObject({ code: Code.InvalidArgument });
    expect(badId.message).toMatch(/^updateId: /);
    expect(await stored()).toEqual({ updates: 0, versions: 1 });

    const cache = await refusal(updates.getUpdateCache({ updateId: { value: "x" } }));
    expect(cache.code).toBe(Code.Unimplemented);
    expect(cache.message).toContain("no update cache");
    expect(served.internalErrors).toEqual([]);
  });
});

describe("JobManager.Update", () => {
  it("starts a rolling update of a SERVICE job; a second one while it is active is refused naming id", async () => {
    const id = await job(JobType.SERVICE);
    const jobs = grpcClient(served, JobManager);
    const answer = await jobs.update({
      id: { value: id },
      config: jobConfig(JobType.SERVICE, "sleep 601"),
    });
    expect(answer.id?.value).toBe(id);
    expect(answer.message).toMatch(/^update [0-9a-f-]{36} started/);
    const listed = await grpcClient(served, UpdateService).listUpdates({ jobID: { value: id } });
    expect(listed.updateInfo.map((u) => u.status?.state)).toEqual([State.INITIALIZED]);

    const second = await refusal(
      jobs.update({ id: { value: id }, config: jobConfig(JobType.SERVICE, "sleep 602") }),
    );
    expect(second.code).toBe(Code.Aborted);
    expect(second.message).toMatch(/^id: /);
    expect(await stored()).toEqual({ updates: 1, versions: 2 });
  });

  it("is reached over YARPC JSON too", async () => {
    const id = await job(JobType.BATCH);
    const response = await fetch(served.yarpcUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "Rpc-Procedure": "UpdateService.ListUpdates",
        "Rpc-Encoding": "json",
        authorization: `Bearer ${TOKEN}`,
      },
      body: JSON.stringify({ jobID: { value: id } }),
    });
    expect([response.status, await response.json()]).toEqual([200, {}]);
  });
});
