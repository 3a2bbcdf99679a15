/**
 * Peloton's API as YARPC's JSON over plain HTTP, the way Peloton's README
 * curls it: the procedure in `Rpc-Procedure` in both spellings, protobuf
 * JSON in and out, errors as YARPC's status, `Rpc-Status` and message.
 */
import { agent, leafPool, startSystem } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Served, servePelotonApi, TOKEN } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

/** What Peloton's README sends, with our token. */
async function yarpc(procedure: string, body: unknown, token: string | null = TOKEN) {
  const response = await fetch(served.yarpcUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "Rpc-Procedure": procedure,
      "Rpc-Service": "peloton-jobmgr",
      "Rpc-Caller": "peloton-client",
      "Context-TTL-MS": "1000",
      "Rpc-Encoding": "json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    rpcStatus: response.headers.get("rpc-status"),
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

describe("Peloton's v0 API as YARPC JSON over HTTP", () => {
  it("creates a pool and a job, gets it, lists its tasks until they succeed, queries, stops and deletes", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    await served.context.gateway.pools.create(
      { path: "/", name: "root", parentId: null, resources: {} },
      "test",
    );
    const pool = await yarpc("peloton.api.v0.respool.ResourceManager::CreateResourcePool", {
      config: {
        name: "batch",
        resources: [
          { kind: "cpu", reservation: 4, limit: 8, share: 1 },
          { kind: "memory", reservation: 4096, limit: 8192, share: 1 },
        ],
      },
    });
    expect([pool.status, pool.json()]).toEqual([200, { result: { value: "/batch" } }]);

    const created = await yarpc("JobManager.Create", {
      config: {
        name: "hello",
        type: "BATCH",
        instanceCount: 2,
        respoolID: { value: "/batch" },
        sla: { preemptible: true },
        defaultConfig: {
          resource: { cpuLimit: 0.5, memLimitMb: 64 },
          command: { value: "echo hi" },
        },
      },
    });
    expect(created.status).toBe(200);
    const id = (created.json().jobId as { value: string }).value;

    const got = await yarpc("peloton.api.v0.job.JobManager::Get", { id: { value: id } });
    expect(got.json()).toMatchObject({
      jobInfo: {
        id: { value: id },
        config: { name: "hello", instanceCount: 2, respoolID: { value: "/batch" } },
      },
    });

    await expect
      .poll(
        async () => {
          const listed = (await yarpc("TaskManager.List", { jobId: { value: id } })).json();
          const tasks = (listed.result as { value: Record<string, { runtime: { state: string } }> })
            .value;
          return Object.values(tasks).map((t) => t.runtime.state);
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual(["SUCCEEDED", "SUCCEEDED"]);

    const query = await yarpc("JobManager.Query", { spec: { name: "hello" }, summaryOnly: true });
    expect(query.json()).toMatchObject({ results: [{ id: { value: id }, name: "hello" }] });

    expect((await yarpc("JobManager.Stop", { id: { value: id } })).status).toBe(200);
    expect((await yarpc("JobManager.Delete", { id: { value: id } })).status).toBe(200);
    const audit = await directSql<{ via: string }>(
      "SELECT via FROM audit_log WHERE via LIKE '%yarpc' ORDER BY id",
    );
    expect(audit.length).toBeGreaterThanOrEqual(4);
    expect(audit.every((a) => a.via === "token:ci via yarpc")).toBe(true);
    expect(served.internalErrors).toEqual([]);
  });

  it("answers the README's request as YARPC does: not a job id, field named", async () => {
    const answer = await yarpc("JobManager.Get", { id: { value: "myjob12345" } });
    expect([answer.status, answer.rpcStatus]).toEqual([400, "invalid-argument"]);
    expect(answer.text).toContain("id: a job id is a UUID");
  });

  it("refuses a bad job with the field named and stores nothing", async () => {
    await leafPool(served.context.gateway, "batch");
    const answer = await yarpc("JobManager.Create", {
      config: {
        name: "x",
        instanceCount: 1,
        respoolID: { value: "/batch" },
        defaultConfig: { resource: { cpuLimit: -1 } },
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.rpcStatus).toBe("invalid-argument");
    expect(answer.text).toContain("config.defaultConfig.resource.cpuLimit");
    expect(await directSql("SELECT id FROM jobs")).toEqual([]);

    const unknownField = await yarpc("JobManager.Create", { config: { nmae: "x" } });
    expect([unknownField.status, unknownField.rpcStatus]).toEqual([400, "invalid-argument"]);
    expect(unknownField.text).toContain("nmae");
  });

  it("says which procedure or header is wrong, and who must sign in", async () => {
    const unknown = await yarpc("JobManager.Frobnicate", {});
    expect([unknown.status, unknown.rpcStatus]).toEqual([501, "unimplemented"]);
    const missing = await yarpc("JobManager.Refresh", { id: { value: "x" } });
    expect([missing.status, missing.rpcStatus]).toEqual([501, "unimplemented"]);
    expect(missing.text).toContain("no job cache");
    const watch = await yarpc("peloton.api.v1alpha.watch.svc.WatchService::Watch", {});
    expect(watch.rpcStatus).toBe("unimplemented");
    const nobody = await yarpc(
      "JobManager.Get",
      { id: { value: "00000000-0000-4000-8000-000000000000" } },
      null,
    );
    expect([nobody.status, nobody.rpcStatus]).toEqual([401, "unauthenticated"]);
    const notJson = await yarpc("JobManager.Get", "{not json");
    expect([notJson.status, notJson.rpcStatus]).toEqual([400, "invalid-argument"]);
  });
});
