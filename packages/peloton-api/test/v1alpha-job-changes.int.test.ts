/**
 * v1alpha JobService's spec changes over our update workflow, over gRPC on
 * a running system (mesos-sim): GetReplaceJobDiff answers the instance sets
 * `updates.create` would write and starts nothing; PatchJob merges a partial
 * spec over the current one and rolls it out as ReplaceJob does;
 * GetWorkflowEvents reads an instance's place in the latest workflow. Bad
 * requests are refused naming the field, with nothing changed.
 */
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { agent, leafPool, startSystem } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  JobSpecSchema,
  WorkflowState,
  WorkflowType,
} from "../src/generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import { JobService } from "../src/generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import { PodState } from "../src/generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

const jobs = () => grpcClient(served, JobService);

function webSpec(pool: string, init: { instanceCount?: number; command?: string } = {}) {
  return create(JobSpecSchema, {
    name: "web",
    owner: "ci",
    instanceCount: init.instanceCount ?? 2,
    labels: [{ key: "tier", value: "front" }],
    sla: { priority: 3, maximumUnavailableInstances: 1 },
    respoolId: { value: pool },
    defaultSpec: {
      containers: [
        {
          name: "web",
          resource: { cpuLimit: 0.25, memLimitMb: 32 },
          command: { value: init.command ?? "sleep 600", shell: true },
        },
      ],
    },
  });
}

async function runningJob(): Promise<{ id: string; pool: string }> {
  await startSystem([agent("a1.test"), agent("a2.test")]);
  const pool = await leafPool(served.context.gateway, "svc");
  const api = jobs();
  const id = (await api.createJob({ spec: webSpec(pool) })).jobId?.value ?? "";
  await expect
    .poll(
      async () => {
        const states: PodState[] = [];
        for await (const a of api.listPods({ jobId: { value: id } }))
          states.push(...a.pods.map((p) => p.status?.state ?? PodState.INVALID));
        return states;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toEqual([PodState.RUNNING, PodState.RUNNING]);
  return { id, pool };
}

const versionOf = async (id: string) =>
  (await jobs().getJob({ jobId: { value: id } })).jobInfo?.status?.version?.value ?? "";

describe("v1alpha JobService spec changes", () => {
  it("diffs a spec without starting anything, patches one, and reads an instance's workflow events", async () => {
    const { id, pool } = await runningJob();
    const api = jobs();
    const version = await versionOf(id);

    const grown = await api.getReplaceJobDiff({
      jobId: { value: id },
      version: { value: version },
      spec: webSpec(pool, { instanceCount: 3, command: "sleep 601" }),
    });
    expect(grown).toMatchObject({
      instancesAdded: [{ from: 2, to: 3 }],
      instancesUpdated: [{ from: 0, to: 2 }],
      instancesRemoved: [],
      instancesUnchanged: [],
    });
    const described = webSpec(pool, { instanceCount: 1 });
    described.description = "only the description and the count change";
    const shrunk = await api.getReplaceJobDiff({ jobId: { value: id }, spec: described });
    expect(shrunk).toMatchObject({
      instancesAdded: [],
      instancesUpdated: [],
      instancesRemoved: [{ from: 1, to: 2 }],
      instancesUnchanged: [{ from: 0, to: 1 }],
    });
    // A diff starts nothing.
    expect((await served.caller.updates.list({ jobId: id })).items).toEqual([]);
    expect(await versionOf(id)).toBe(version);

    // A patch: one more instance and a new priority; everything else is the current spec.
    const patched = await api.patchJob({
      jobId: { value: id },
      version: { value: version },
      spec: { instanceCount: 3, sla: { priority: 5 } },
      updateSpec: { batchSize: 0 },
    });
    expect(patched.version?.value).toMatch(/^2-\d+$/);
    await expect
      .poll(async () => (await api.getJob({ jobId: { value: id } })).workflowInfo?.status?.state, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(WorkflowState.SUCCEEDED);
    const spec = (await api.getJob({ jobId: { value: id } })).jobInfo?.spec;
    expect(spec).toMatchObject({
      name: "web",
      instanceCount: 3,
      labels: [{ key: "tier", value: "front" }],
      sla: { priority: 5, maximumUnavailableInstances: 1 },
      defaultSpec: { containers: [{ name: "web", command: { value: "sleep 600" } }] },
    });

    // Instance 2 was added by the patch's update; instance 0's launch did not change.
    const added = await api.getWorkflowEvents({ jobId: { value: id }, instanceId: 2 });
    expect(added.events.map((e) => [e.type, e.state])).toEqual([
      [WorkflowType.UPDATE, WorkflowState.SUCCEEDED],
      [WorkflowType.UPDATE, WorkflowState.INITIALIZED],
    ]);
    expect(Date.parse(added.events[1]?.timestamp ?? "")).not.toBeNaN();
    const limited = await api.getWorkflowEvents({ jobId: { value: id }, instanceId: 2, limit: 1 });
    expect(limited.events.map((e) => e.state)).toEqual([WorkflowState.SUCCEEDED]);
    expect((await api.getWorkflowEvents({ jobId: { value: id }, instanceId: 0 })).events).toEqual(
      [],
    );
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a bad diff, patch or instance naming the field, and changes nothing", async () => {
    const pool = await leafPool(served.context.gateway, "svc");
    const api = jobs();
    const id = (await api.createJob({ spec: webSpec(pool) })).jobId?.value ?? "";
    const version = await versionOf(id);

    const negative = webSpec(pool);
    const resource = negative.defaultSpec?.containers[0]?.resource;
    if (resource) resource.cpuLimit = -1;
    const cpu = await refusal(api.getReplaceJobDiff({ jobId: { value: id }, spec: negative }));
    expect(cpu.code).toBe(Code.InvalidArgument);
    expect(cpu.message).toContain("spec.defaultSpec.containers[0].resource.cpuLimit");
    const stale = await refusal(
      api.getReplaceJobDiff({
        jobId: { value: id },
        version: { value: "9-1" },
        spec: webSpec(pool),
      }),
    );
    expect(stale.code).toBe(Code.Aborted);
    expect(stale.message).toContain("version.value");

    // A list cannot be patched: replace or extend is not said.
    const labels = await refusal(
      api.patchJob({ jobId: { value: id }, spec: { labels: [{ key: "tier", value: "back" }] } }),
    );
    expect(labels.code).toBe(Code.Unimplemented);
    expect(labels.message).toMatch(/^spec\.labels: /);
    const deep = await refusal(
      api.patchJob({
        jobId: { value: id },
        spec: { defaultSpec: { containers: [{ command: { value: "sleep 1" } }] } },
      }),
    );
    expect(deep.message).toMatch(/^spec\.defaultSpec\.containers: /);
    const stalePatch = await refusal(
      api.patchJob({ jobId: { value: id }, version: { value: "9-1" }, spec: { instanceCount: 3 } }),
    );
    expect(stalePatch.code).toBe(Code.Aborted);
    expect(stalePatch.message).toContain("version.value");
    const noSpec = await refusal(api.patchJob({ jobId: { value: id } }));
    expect(noSpec.code).toBe(Code.InvalidArgument);
    expect(noSpec.message).toMatch(/^spec: /);

    // A job whose config a JobSpec cannot carry (here a BATCH job) is not patched.
    const batch = await served.caller.jobs.create({
      yaml: `name: b\ntype: BATCH\ninstanceCount: 1\nrespoolID: ${pool}\ndefaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 16 }, command: { value: "true" } }\n`,
    });
    const notStateless = await refusal(
      api.patchJob({ jobId: { value: batch.id }, spec: { instanceCount: 3 } }),
    );
    expect(notStateless.code).toBe(Code.FailedPrecondition);
    expect(notStateless.message).toMatch(/^jobId\.value: .*\btype\b/);

    // Nothing changed: no workflow, the same version and spec.
    expect((await served.caller.updates.list({ jobId: id })).items).toEqual([]);
    expect(await versionOf(id)).toBe(version);
    expect((await api.getJob({ jobId: { value: id } })).jobInfo?.spec?.instanceCount).toBe(2);

    const noWorkflow = await refusal(
      api.getWorkflowEvents({ jobId: { value: id }, instanceId: 0 }),
    );
    expect(noWorkflow.code).toBe(Code.NotFound);
    expect(noWorkflow.message).toMatch(/^jobId\.value: /);
    await api.replaceJob({
      jobId: { value: id },
      spec: webSpec(pool, { command: "sleep 601" }),
      updateSpec: { startPaused: true },
    });
    const beyond = await refusal(api.getWorkflowEvents({ jobId: { value: id }, instanceId: 7 }));
    expect(beyond.code).toBe(Code.InvalidArgument);
    expect(beyond.message).toMatch(/^instanceId: /);
    const badId = await refusal(api.getWorkflowEvents({ jobId: { value: "nope" } }));
    expect(badId.code).toBe(Code.InvalidArgument);
    expect(badId.message).toMatch(/^jobId\.value: /);
    expect(served.internalErrors).toEqual([]);
  });
});
