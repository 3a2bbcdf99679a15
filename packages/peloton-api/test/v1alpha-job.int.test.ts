/**
 * v1alpha stateless JobService over gRPC on a running system (mesos-sim):
 * a service created from a JobSpec, read back as Peloton's JobInfo, its
 * pods listed and queried, found by name, replaced through our update
 * workflow (paused, resumed, listed), stopped and deleted; the stored
 * config is the one the CLI's YAML gives; bad requests refused naming the
 * JobSpec's field with nothing stored.
 */
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { agent, leafPool, startSystem } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  JobSpecSchema,
  JobState,
  WorkflowState,
  WorkflowType,
} from "../src/generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import { JobService } from "../src/generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import { PodState } from "../src/generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { OrderBy_Order } from "../src/generated/peloton/api/v1alpha/query/query_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

function webSpec(pool: string, command = "sleep 600") {
  return create(JobSpecSchema, {
    name: "web",
    owner: "ci",
    instanceCount: 2,
    labels: [{ key: "tier", value: "front" }],
    sla: { priority: 3, maximumUnavailableInstances: 1 },
    respoolId: { value: pool },
    defaultSpec: {
      containers: [
        {
          name: "web",
          resource: { cpuLimit: 0.25, memLimitMb: 32 },
          command: { value: command, shell: true },
        },
      ],
      restartPolicy: { maxFailures: 3 },
    },
  });
}

async function podStates(api: ReturnType<typeof jobs>, id: string): Promise<PodState[]> {
  const states: PodState[] = [];
  for await (const answer of api.listPods({ jobId: { value: id } }))
    states.push(...answer.pods.map((p) => p.status?.state ?? PodState.INVALID));
  return states;
}

const jobs = () => grpcClient(served, JobService);

describe("v1alpha stateless JobService", () => {
  it("creates, reads, lists pods, finds, replaces, pauses, resumes, stops and deletes a job", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    const pool = await leafPool(served.context.gateway, "svc");
    const api = jobs();
    const created = await api.createJob({ spec: webSpec(pool) });
    const id = created.jobId?.value ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.version?.value).toMatch(/^1-\d+$/);

    const got = await api.getJob({ jobId: { value: id } });
    expect(got.jobInfo?.spec).toMatchObject({
      name: "web",
      owner: "ci",
      instanceCount: 2,
      labels: [{ key: "tier", value: "front" }],
      sla: { priority: 3, maximumUnavailableInstances: 1 },
      respoolId: { value: pool },
      defaultSpec: {
        containers: [
          { name: "web", resource: { cpuLimit: 0.25 }, command: { value: "sleep 600" } },
        ],
        restartPolicy: { maxFailures: 3 },
      },
    });
    await expect
      .poll(() => podStates(api, id), { timeout: 20_000, interval: 200 })
      .toEqual([PodState.RUNNING, PodState.RUNNING]);
    await expect
      .poll(
        async () =>
          (await api.getJob({ jobId: { value: id }, summaryOnly: true })).summary?.status?.state,
      )
      .toBe(JobState.RUNNING);

    expect((await api.getJobIDFromJobName({ jobName: "web" })).jobId.map((j) => j.value)).toEqual([
      id,
    ]);
    const queried = await api.queryJobs({ spec: { name: "web", jobStates: [JobState.RUNNING] } });
    expect(
      queried.records.map((r) => [r.jobId?.value, r.status?.podStats.POD_STATE_RUNNING]),
    ).toEqual([[id, 2]]);
    const pods = await api.queryPods({
      jobId: { value: id },
      spec: { names: [{ value: `${id}-1` }], podStates: [PodState.RUNNING] },
    });
    expect(pods.pods.map((p) => [p.spec?.podName?.value, p.status?.podId?.value])).toEqual([
      [`${id}-1`, `${id}-1-1`],
    ]);

    // A new spec rolls out as an update, here paused first.
    const version = (await api.getJob({ jobId: { value: id } })).jobInfo?.status?.version?.value;
    const replaced = await api.replaceJob({
      jobId: { value: id },
      version: { value: version ?? "" },
      spec: webSpec(pool, "sleep 601"),
      updateSpec: { batchSize: 1, startPaused: true },
    });
    expect(replaced.version?.value).toMatch(/^2-\d+$/);
    // The workflow loop takes a new update from INITIALIZED to PAUSED (startPaused).
    await expect
      .poll(async () => (await api.getJob({ jobId: { value: id } })).workflowInfo?.status, {
        timeout: 10_000,
        interval: 200,
      })
      .toMatchObject({ type: WorkflowType.UPDATE, state: WorkflowState.PAUSED });
    await api.resumeJobWorkflow({ jobId: { value: id } });
    await expect
      .poll(async () => (await api.getJob({ jobId: { value: id } })).workflowInfo?.status?.state, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(WorkflowState.SUCCEEDED);
    const workflows = await api.listJobWorkflows({ jobId: { value: id } });
    expect(workflows.workflowInfos).toHaveLength(1);
    expect(workflows.workflowInfos[0]?.updateSpec?.batchSize).toBe(1);
    expect(workflows.workflowInfos[0]?.events.map((e) => e.state)).toEqual(
      expect.arrayContaining([WorkflowState.PAUSED, WorkflowState.SUCCEEDED]),
    );
    const now = await api.getJob({ jobId: { value: id } });
    expect(now.jobInfo?.spec?.defaultSpec?.containers[0]?.command?.value).toBe("sleep 601");
    const first = await api.getJob({ jobId: { value: id }, version: { value: version ?? "" } });
    expect(first.jobInfo?.spec?.defaultSpec?.containers[0]?.command?.value).toBe("sleep 600");

    const running = await refusal(api.deleteJob({ jobId: { value: id } }));
    expect(running.code).toBe(Code.FailedPrecondition);
    expect(running.message).toMatch(/^force: /);
    await api.stopJob({ jobId: { value: id } });
    await expect
      .poll(
        async () =>
          (await api.getJob({ jobId: { value: id }, summaryOnly: true })).summary?.status?.state,
        {
          timeout: 20_000,
        },
      )
      .toBe(JobState.KILLED);
    await api.deleteJob({ jobId: { value: id } });
    expect((await served.caller.jobs.get({ id })).goalState).toBe("DELETED");
    expect(served.internalErrors).toEqual([]);
  });

  it("stores the same config as the CLI's YAML does", async () => {
    const pool = await leafPool(served.context.gateway, "svc");
    const viaGrpc = (await jobs().createJob({ spec: webSpec(pool) })).jobId?.value ?? "";
    const viaYaml = await served.caller.jobs.create({
      yaml: `name: web
type: SERVICE
owner: ci
instanceCount: 2
labels: [{ key: tier, value: front }]
sla: { priority: 3, maximumUnavailableInstances: 1 }
respoolID: ${pool}
defaultConfig:
  name: web
  resource: { cpuLimit: 0.25, memLimitMb: 32 }
  command: { value: "sleep 600", shell: true }
  restartPolicy: { maxFailures: 3 }
`,
    });
    const [g, y] = await Promise.all([
      served.caller.jobs.get({ id: viaGrpc }),
      served.caller.jobs.get({ id: viaYaml.id }),
    ]);
    expect(g.config).toEqual(y.config);
  });

  it("sorts QueryJobs and QueryPods as their orderBy asks, and refuses a sort it does not serve", async () => {
    const pool = await leafPool(served.context.gateway, "svc");
    const api = jobs();
    const ids: string[] = [];
    for (const name of ["web-b", "web-a"]) {
      const spec = webSpec(pool);
      spec.name = name;
      ids.push((await api.createJob({ spec })).jobId?.value ?? "");
    }
    const by = (property: string, order: OrderBy_Order) => ({
      orderBy: [{ property: { value: property }, order }],
    });
    const names = async (order: OrderBy_Order) =>
      (await api.queryJobs({ spec: { pagination: by("name", order) } })).records.map((r) => r.name);
    expect(await names(OrderBy_Order.BY_ASC)).toEqual(["web-a", "web-b"]);
    expect(await names(OrderBy_Order.BY_DESC)).toEqual(["web-b", "web-a"]);
    const pods = await api.queryPods({
      jobId: { value: ids[0] },
      pagination: by("instanceId", OrderBy_Order.BY_DESC),
      summaryOnly: true,
    });
    expect(pods.pods.map((p) => p.status?.podId?.value.split("-").at(-2))).toEqual(["1", "0"]);

    const owner = await refusal(
      api.queryJobs({ spec: { pagination: by("owner", OrderBy_Order.BY_ASC) } }),
    );
    expect(owner.code).toBe(Code.Unimplemented);
    expect(owner.message).toContain('spec.pagination.orderBy[0].property: sorting by "owner"');
    const reason = await refusal(
      api.queryPods({
        jobId: { value: ids[0] },
        pagination: by("reason", OrderBy_Order.BY_ASC),
      }),
    );
    expect(reason.code).toBe(Code.Unimplemented);
    expect(reason.message).toContain('pagination.orderBy[0].property: sorting by "reason"');
  });

  it("refuses a bad spec or version naming the JobSpec's field, and stores nothing", async () => {
    const pool = await leafPool(served.context.gateway, "svc");
    const api = jobs();
    const noName = webSpec(pool);
    noName.name = "";
    const named = await refusal(api.createJob({ spec: noName }));
    expect(named.code).toBe(Code.InvalidArgument);
    expect(named.message).toContain("spec.name");
    const negative = webSpec(pool);
    const resource = negative.defaultSpec?.containers[0]?.resource;
    if (resource) resource.cpuLimit = -1;
    const cpu = await refusal(api.createJob({ spec: negative }));
    expect(cpu.code).toBe(Code.InvalidArgument);
    expect(cpu.message).toContain("spec.defaultSpec.containers[0].resource.cpuLimit");
    const two = webSpec(pool);
    two.defaultSpec?.containers.push(two.defaultSpec.containers[0] ?? ({} as never));
    const containers = await refusal(api.createJob({ spec: two }));
    expect(containers.code).toBe(Code.Unimplemented);
    expect(containers.message).toContain("spec.defaultSpec.containers");
    expect(await directSql("SELECT id FROM jobs")).toEqual([]);

    const { id } = await served.caller.jobs.create({
      yaml: `name: web\ntype: SERVICE\ninstanceCount: 1\nrespoolID: ${pool}\ndefaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 16 }, command: { value: "sleep 600" } }\n`,
    });
    const badVersion = await refusal(
      api.stopJob({ jobId: { value: id }, version: { value: "latest" } }),
    );
    expect(badVersion.code).toBe(Code.InvalidArgument);
    expect(badVersion.message).toMatch(/^version\.value: /);
    const stale = await refusal(api.stopJob({ jobId: { value: id }, version: { value: "1-999" } }));
    expect(stale.code).toBe(Code.Aborted);
    expect(stale.message).toContain("version.value");
    const badId = await refusal(api.getJob({ jobId: { value: "nope" } }));
    expect(badId.code).toBe(Code.InvalidArgument);
    expect(badId.message).toMatch(/^jobId\.value: /);
    expect((await served.caller.jobs.get({ id })).goalState).toBe("RUNNING");
    const noWorkflow = await refusal(api.pauseJobWorkflow({ jobId: { value: id } }));
    expect(noWorkflow.code).toBe(Code.NotFound);

    expect((await refusal(api.getJobCache({}))).code).toBe(Code.Unimplemented);
    expect(served.internalErrors).toEqual([]);
  });
});
