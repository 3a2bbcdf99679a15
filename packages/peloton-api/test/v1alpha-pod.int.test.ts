/**
 * v1alpha PodService over gRPC on a running system (mesos-sim): a job's
 * instance read as a pod (`<job id>-<instance>`, runs as pod ids), its
 * events, stopped, started and restarted; a bad pod name refused naming
 * the field with nothing changed; sandboxes and caches UNIMPLEMENTED.
 */
import { Code } from "@connectrpc/connect";
import { agent, leafPool, startSystem } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PodState } from "../src/generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { PodService } from "../src/generated/peloton/api/v1alpha/pod/svc/pod_svc_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

async function sleeper(instances: number): Promise<string> {
  const pool = await leafPool(served.context.gateway, "svc");
  const { id } = await served.caller.jobs.create({
    pool,
    yaml: `name: sleeper
type: SERVICE
instanceCount: ${instances}
defaultConfig:
  resource: { cpuLimit: 0.25, memLimitMb: 32 }
  command: { value: "sleep 600", shell: true }
`,
  });
  return id;
}

describe("v1alpha PodService", () => {
  it("reads a pod with its spec and events, stops, starts and restarts it", async () => {
    await startSystem([agent("a1.test")]);
    const id = await sleeper(2);
    const pods = grpcClient(served, PodService);
    const name = { value: `${id}-1` };
    const state = async () =>
      (await pods.getPod({ podName: name, statusOnly: true })).current?.status?.state;
    await expect.poll(state, { timeout: 20_000, interval: 200 }).toBe(PodState.RUNNING);

    const got = await pods.getPod({ podName: name });
    expect(got.current?.spec).toMatchObject({
      podName: name,
      containers: [
        { resource: { cpuLimit: 0.25, memLimitMb: 32 }, command: { value: "sleep 600" } },
      ],
    });
    expect(got.current?.status).toMatchObject({
      podId: { value: `${id}-1-1` },
      desiredState: PodState.RUNNING,
      host: "a1.test",
    });
    expect(got.previous).toEqual([]);
    const events = await pods.getPodEvents({ podName: name });
    expect(events.events.map((e) => e.actualState)).toContain("POD_STATE_RUNNING");
    expect(events.events.every((e) => e.podId?.value === `${id}-1-1`)).toBe(true);

    await pods.stopPod({ podName: name });
    await expect.poll(state, { timeout: 20_000, interval: 200 }).toBe(PodState.KILLED);
    // The other instance is untouched.
    expect((await pods.getPod({ podName: { value: `${id}-0` } })).current?.status?.state).toBe(
      PodState.RUNNING,
    );

    await pods.startPod({ podName: name });
    await expect.poll(state, { timeout: 20_000, interval: 200 }).toBe(PodState.RUNNING);
    const started = await pods.getPod({ podName: name, statusOnly: true });
    expect(started.current?.status?.podId?.value).toBe(`${id}-1-2`);
    expect(started.current?.spec).toBeUndefined();
    expect(started.previous.map((p) => p.status?.podId?.value)).toEqual([`${id}-1-1`]);
    const firstRun = await pods.getPodEvents({ podName: name, podId: { value: `${id}-1-1` } });
    expect(firstRun.events.at(-1)?.actualState).toBe("POD_STATE_KILLED");

    await pods.restartPod({ podName: name });
    await expect
      .poll(async () => (await pods.getPod({ podName: name })).current?.status?.podId?.value, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(`${id}-1-3`);
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a bad pod name naming the field and changes nothing", async () => {
    const id = await sleeper(1);
    const pods = grpcClient(served, PodService);
    const bad = await refusal(pods.stopPod({ podName: { value: id } }));
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.message).toMatch(/^podName\.value: a pod name is "<job id>-<instance>"/);
    const none = await refusal(pods.getPod({}));
    expect(none.code).toBe(Code.InvalidArgument);
    const otherRun = await refusal(
      pods.getPodEvents({ podName: { value: `${id}-0` }, podId: { value: `${id}-1-1` } }),
    );
    expect(otherRun.code).toBe(Code.InvalidArgument);
    expect(otherRun.message).toContain("podId.value");
    const task = await served.caller.tasks.get({ jobId: id, instance: 0 });
    expect([task.goalState, task.runId]).toEqual(["RUNNING", 1]);
    const missing = await refusal(pods.getPod({ podName: { value: `${id}-7` } }));
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.message).toMatch(/^podName\.value: /);
    expect(served.internalErrors).toEqual([]);
  });

  it("answers UNIMPLEMENTED for sandboxes and caches, saying what to use", async () => {
    const pods = grpcClient(served, PodService);
    const sandbox = await refusal(pods.browsePodSandbox({}));
    expect(sandbox.code).toBe(Code.Unimplemented);
    expect(sandbox.message).toContain("peloton task logs");
    for (const call of [pods.refreshPod({}), pods.getPodCache({}), pods.deletePodEvents({})]) {
      const answer = await refusal(call);
      expect(answer.code).toBe(Code.Unimplemented);
      expect(answer.message).toMatch(/PodService\.\w+: this scheduler keeps/);
    }
  });
});
