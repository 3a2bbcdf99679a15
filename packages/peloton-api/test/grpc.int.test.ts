/**
 * Peloton's API end to end over gRPC, with a client generated from our
 * protos, on a running system (mesos-sim, the scheduler, PostgreSQL): a
 * pool and a job created, the job read as Peloton's JobInfo, its tasks
 * listed until they succeed, jobs queried, stopped and deleted; a bad
 * request refused with the field named and nothing stored; what is not
 * served answers UNIMPLEMENTED saying what is missing.
 */
import { connect } from "node:http2";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { agent, leafPool, startSystem } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  GetRequestSchema,
  JobConfigSchema,
  JobManager,
  JobState,
  JobType,
} from "../src/generated/peloton/api/v0/job/job_pb.ts";
import { OrderBy_Order } from "../src/generated/peloton/api/v0/query/query_pb.ts";
import { ResourceManager } from "../src/generated/peloton/api/v0/respool/respool_pb.ts";
import { TaskManager, TaskState } from "../src/generated/peloton/api/v0/task/task_pb.ts";
import { UpdateService } from "../src/generated/peloton/api/v0/update/svc/update_svc_pb.ts";
import { PodState } from "../src/generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { WatchService } from "../src/generated/peloton/api/v1alpha/watch/svc/watch_svc_pb.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi, TOKEN } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

function clients(token: string | null = TOKEN) {
  const transport = createGrpcTransport({
    baseUrl: served.grpcUrl,
    interceptors: [
      (next) => (req) => {
        if (token) req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      },
    ],
  });
  return {
    jobs: createClient(JobManager, transport),
    tasks: createClient(TaskManager, transport),
    pools: createClient(ResourceManager, transport),
    updates: createClient(UpdateService, transport),
    watch: createClient(WatchService, transport),
  };
}

/** Within the two test agents' capacity (8 cpus, 16 GiB, 200 GB). */
const POOL_RESOURCES = [
  { kind: "cpu", reservation: 4, limit: 8, share: 1 },
  { kind: "memory", reservation: 4096, limit: 8192, share: 1 },
  { kind: "disk", reservation: 10_000, limit: 100_000, share: 1 },
];

/** The root pool, which every scheduler has and nobody creates through the API. */
async function root(): Promise<void> {
  await served.context.gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "test",
  );
}

function helloJob(pool: string) {
  return create(JobConfigSchema, {
    name: "hello",
    type: JobType.BATCH,
    instanceCount: 3,
    respoolID: { value: pool },
    sla: { priority: 5, preemptible: true },
    defaultConfig: {
      resource: { cpuLimit: 0.5, memLimitMb: 64 },
      command: { value: "echo hello $PELOTON_INSTANCE_ID", shell: true },
    },
  });
}

describe("Peloton's v0 API over gRPC", () => {
  it("creates a pool and a job, reads it, lists its tasks until they succeed, queries, stops and deletes", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    await root();
    const api = clients();

    const pool = await api.pools.createResourcePool({
      config: { name: "batch", owningTeam: "", resources: POOL_RESOURCES },
    });
    expect(pool.result?.value).toBe("/batch");
    expect((await api.pools.lookupResourcePoolID({ path: { value: "/batch" } })).id?.value).toBe(
      "/batch",
    );
    const got = await api.pools.getResourcePool({ id: { value: "/batch" } });
    expect(got.poolinfo?.config?.resources.find((r) => r.kind === "cpu")).toMatchObject({
      reservation: 4,
      limit: 8,
    });

    const created = await api.jobs.create({ config: helloJob("/batch") });
    const id = created.jobId?.value ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await api.jobs.getActiveJobs({})).ids.map((j) => j.value)).toContain(id);

    const info = (await api.jobs.get({ id: { value: id } })).jobInfo;
    expect(info?.config).toMatchObject({
      name: "hello",
      type: JobType.BATCH,
      instanceCount: 3,
      respoolID: { value: "/batch" },
      defaultConfig: { command: { value: "echo hello $PELOTON_INSTANCE_ID" } },
    });

    await expect
      .poll(
        async () => {
          const listed = await api.tasks.list({ jobId: { value: id } });
          return Object.values(listed.result?.value ?? {}).map((t) => t.runtime?.state);
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([TaskState.SUCCEEDED, TaskState.SUCCEEDED, TaskState.SUCCEEDED]);
    const task = await api.tasks.get({ jobId: { value: id }, instanceId: 1 });
    expect(task.result?.runtime?.host).toMatch(/\.test$/);
    // List reads the runtime columns only, Get the whole task: the same TaskInfo either way.
    const listed = await api.tasks.list({ jobId: { value: id } });
    expect(listed.result?.value[1]).toEqual(task.result);
    expect(task.result?.config?.command?.value).toBe("echo hello $PELOTON_INSTANCE_ID");
    const events = await api.tasks.getPodEvents({ jobId: { value: id }, instanceId: 1 });
    expect(events.result.at(-1)).toMatchObject({ actualState: "SUCCEEDED" });
    expect(events.result.map((e) => e.actualState)).toContain("RUNNING");
    await expect
      .poll(async () => (await api.jobs.get({ id: { value: id } })).jobInfo?.runtime?.state, {
        timeout: 10_000,
      })
      .toBe(JobState.SUCCEEDED);
    expect((await api.jobs.getActiveJobs({})).ids.map((j) => j.value)).not.toContain(id);

    const query = await api.jobs.query({
      spec: { name: "hello", jobStates: [JobState.SUCCEEDED] },
      summaryOnly: true,
    });
    expect(query.results.map((j) => [j.id?.value, j.name, j.instanceCount])).toEqual([
      [id, "hello", 3],
    ]);

    const stopped = await api.jobs.stop({ id: { value: id } });
    expect(stopped.resourceVersion).toBeGreaterThan(0n);
    await api.jobs.delete({ id: { value: id } });
    await expect
      .poll(async () => (await api.jobs.get({ id: { value: id } })).jobInfo?.runtime?.goalState)
      .toBe(JobState.DELETED);

    // Written as the caller, through the API: the audit log says so.
    const audit = await directSql<{ action: string; via: string }>(
      "SELECT action, via FROM audit_log WHERE via LIKE '%grpc' ORDER BY id",
    );
    expect(audit.map((a) => a.via)).toContain("token:ci via grpc");
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a bad job with the field named, and stores nothing", async () => {
    await leafPool(served.context.gateway, "batch");
    const api = clients();
    const bad = helloJob("/batch");
    bad.name = "";
    const answer = await refusal(api.jobs.create({ config: bad }));
    expect(answer.code).toBe(Code.InvalidArgument);
    expect(answer.message).toContain("config.name");
    expect(await directSql("SELECT id FROM jobs")).toEqual([]);

    const badPool = await refusal(
      api.pools.createResourcePool({
        config: { name: "x", resources: [{ kind: "cpu", reservation: 5, limit: 1, share: 1 }] },
      }),
    );
    expect(badPool.code).toBe(Code.InvalidArgument);
    expect(badPool.message).toContain("config.resources.cpu");
    expect(await directSql("SELECT id FROM resource_pools WHERE path = '/x'")).toEqual([]);
  });

  it("refuses a request over 4 MiB as RESOURCE_EXHAUSTED, and stores nothing", async () => {
    await leafPool(served.context.gateway, "batch");
    const huge = helloJob("/batch");
    huge.description = "x".repeat(5 * 1024 * 1024);
    const answer = await refusal(clients().jobs.create({ config: huge }));
    expect(answer.code).toBe(Code.ResourceExhausted);
    expect(await directSql("SELECT id FROM jobs")).toEqual([]);
  });

  it("answers uncompressed though the client accepts gzip", async () => {
    await leafPool(served.context.gateway, "batch");
    // A description big enough that Connect would compress its answer.
    const config = helloJob("/batch");
    config.description = "a job described at length ".repeat(150);
    const created = await clients().jobs.create({ config });
    const request = toBinary(GetRequestSchema, create(GetRequestSchema, { id: created.jobId }));
    const envelope = Buffer.alloc(5 + request.length);
    envelope.writeUInt32BE(request.length, 1);
    envelope.set(request, 5);
    const session = connect(served.grpcUrl);
    try {
      const answer = await new Promise<Buffer>((resolve, reject) => {
        const stream = session.request({
          ":method": "POST",
          ":path": "/peloton.api.v0.job.JobManager/Get",
          "content-type": "application/grpc",
          te: "trailers",
          "grpc-accept-encoding": "gzip",
          authorization: `Bearer ${TOKEN}`,
        });
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => resolve(Buffer.concat(chunks)));
        stream.on("error", reject);
        stream.end(envelope);
      });
      // gRPC's message envelope: byte 0 is the compressed flag, then the length.
      expect(answer.readUInt32BE(1)).toBeGreaterThan(4096);
      expect(answer[0]).toBe(0);
    } finally {
      session.close();
    }
  });

  it("answers NOT_FOUND, ALREADY_EXISTS, UNAUTHENTICATED and UNIMPLEMENTED as gRPC codes", async () => {
    await leafPool(served.context.gateway, "batch");
    const api = clients();
    const missing = await refusal(
      api.jobs.get({ id: { value: "00000000-0000-4000-8000-000000000000" } }),
    );
    expect(missing).toMatchObject({ code: Code.NotFound });
    expect(missing.message).toContain("id: ");

    const again = await refusal(
      api.pools.createResourcePool({ config: { name: "batch", resources: POOL_RESOURCES } }),
    );
    expect(again.code).toBe(Code.AlreadyExists);

    const nobody = await refusal(clients(null).jobs.create({ config: helloJob("/batch") }));
    expect(nobody.code).toBe(Code.Unauthenticated);
    const stranger = await refusal(
      clients(`pt_${"b".repeat(43)}`).jobs.get({ id: { value: "x" } }),
    );
    expect(stranger.code).toBe(Code.Unauthenticated);

    const refresh = await refusal(api.jobs.refresh({ id: { value: "x" } }));
    expect(refresh).toMatchObject({ code: Code.Unimplemented });
    expect(refresh.message).toContain("no job cache");
    const cache = await refusal(api.updates.getUpdateCache({}));
    expect(cache.code).toBe(Code.Unimplemented);
    expect(cache.message).toContain("no update cache");
    expect(served.internalErrors).toEqual([]);
  });

  it("sorts job and task queries as their orderBy asks, and refuses a sort it does not serve", async () => {
    await leafPool(served.context.gateway, "batch");
    const api = clients();
    const ids: Record<string, string> = {};
    for (const name of ["b-job", "c-job", "a-job"]) {
      const job = helloJob("/batch");
      job.name = name;
      ids[name] = (await api.jobs.create({ config: job })).jobId?.value ?? "";
    }
    const by = (property: string, order: OrderBy_Order) => ({
      pagination: { orderBy: [{ property: { value: property }, order }], limit: 10 },
    });
    const names = async (property: string, order: OrderBy_Order) =>
      (await api.jobs.query({ spec: by(property, order), summaryOnly: true })).results.map(
        (j) => j.name,
      );
    expect(await names("name", OrderBy_Order.ASC)).toEqual(["a-job", "b-job", "c-job"]);
    expect(await names("name", OrderBy_Order.DESC)).toEqual(["c-job", "b-job", "a-job"]);
    // The CLI's default, creation_time DESC: the newest first.
    expect(await names("creation_time", OrderBy_Order.DESC)).toEqual(["a-job", "c-job", "b-job"]);

    const instances = async (property: string, order: OrderBy_Order) =>
      (
        await api.tasks.query({ jobId: { value: ids["b-job"] }, spec: by(property, order) })
      ).records.map((t) => t.instanceId);
    expect(await instances("instanceId", OrderBy_Order.DESC)).toEqual([2, 1, 0]);
    expect(await instances("instanceId", OrderBy_Order.ASC)).toEqual([0, 1, 2]);
    // The spelling Peloton's CLI offers in its help.
    expect(await instances("instance_id", OrderBy_Order.DESC)).toEqual([2, 1, 0]);

    const owner = await refusal(api.jobs.query({ spec: by("owner", OrderBy_Order.ASC) }));
    expect(owner.code).toBe(Code.Unimplemented);
    expect(owner.message).toContain('spec.pagination.orderBy[0].property: sorting by "owner"');
    expect(owner.message).toContain("creation_time, name, state");
    const message = await refusal(
      api.tasks.query({ jobId: { value: ids["b-job"] }, spec: by("message", OrderBy_Order.ASC) }),
    );
    expect(message.code).toBe(Code.Unimplemented);
    expect(message.message).toContain("instanceId, instance_id, state, host, creation_time");
    const two = await refusal(
      api.jobs.query({
        spec: {
          pagination: {
            orderBy: [
              { property: { value: "name" }, order: OrderBy_Order.ASC },
              { property: { value: "state" }, order: OrderBy_Order.ASC },
            ],
          },
        },
      }),
    );
    expect(two.code).toBe(Code.Unimplemented);
    expect(two.message).toContain("one sort property is supported");
    expect(served.internalErrors).toEqual([]);
  });

  it("streams a job's pods as they change (WatchService), fed by the change feed", async () => {
    await startSystem([agent("a1.test")]);
    await leafPool(served.context.gateway, "batch");
    const api = clients();
    const config = helloJob("/batch");
    config.instanceCount = 2;
    const id = (await api.jobs.create({ config })).jobId?.value ?? "";
    const seen = new Map<string, PodState[]>();
    let answers = 0;
    for await (const answer of api.watch.watch({ podFilter: { jobId: { value: id } } })) {
      answers += 1;
      expect(answer.watchId).not.toBe("");
      expect(answer.revision).toBe(BigInt(answers));
      for (const pod of answer.pods) {
        const states = seen.get(pod.podName?.value ?? "") ?? [];
        seen.set(pod.podName?.value ?? "", [...states, pod.status?.state ?? PodState.INVALID]);
      }
      const done = [...seen.values()].filter((s) => s.at(-1) === PodState.SUCCEEDED);
      if (done.length === 2) break; // ends the call (the client cancels the stream)
    }
    expect([...seen.keys()].sort()).toEqual([`${id}-0`, `${id}-1`]);
    expect(answers).toBeGreaterThan(1);
    // Every pod was first seen before it ran, and last as SUCCEEDED.
    for (const states of seen.values()) {
      expect(states[0]).not.toBe(PodState.SUCCEEDED);
      expect(states.at(-1)).toBe(PodState.SUCCEEDED);
    }
  });

  it("stores the same job and pool config as the CLI's YAML does", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    await root();
    const api = clients();
    const yaml = served.caller;
    await api.pools.createResourcePool({
      config: { name: "viagrpc", owningTeam: "infra", resources: POOL_RESOURCES },
    });
    await yaml.pools.create({
      path: "/viayaml",
      config: { name: "viayaml", owningTeam: "infra", resources: POOL_RESOURCES },
    });
    const [a, b] = await Promise.all([
      yaml.pools.get({ path: "/viagrpc" }),
      yaml.pools.get({ path: "/viayaml" }),
    ]);
    expect({ ...a.config, name: "x" }).toEqual({ ...b.config, name: "x" });

    const viaGrpc = (await api.jobs.create({ config: helloJob("/viagrpc") })).jobId?.value ?? "";
    const viaYaml = await yaml.jobs.create({
      yaml: `name: hello
type: BATCH
instancecount: 3
respoolid: /viagrpc
sla:
  priority: 5
  preemptible: true
defaultconfig:
  resource:
    cpulimit: 0.5
    memlimitmb: 64
  command:
    shell: true
    value: 'echo hello $PELOTON_INSTANCE_ID'
`,
    });
    const [g, y] = await Promise.all([
      yaml.jobs.get({ id: viaGrpc }),
      yaml.jobs.get({ id: viaYaml.id }),
    ]);
    expect(g.config).toEqual(y.config);
  });
});
