/**
 * The whole pipeline on mesos-sim with the real runtime and PostgreSQL:
 * submit → admission → placement → launch → status updates → goal states.
 */
import { SIM_DURATION_KEY } from "@peloton/mesos";
import { readOnlyView } from "@peloton/storage";
import {
  agent,
  allIn,
  eventsOf,
  jobState,
  leafPool,
  ROOMY,
  startSystem,
  statesOf,
  submit,
  tasksOf,
} from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { clusterLogs } from "../src/hostmgr/clusters.ts";
import { actOnJob } from "../src/jobmgr/actions.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const echoJob = (instances: number, command = "echo hello $PELOTON_INSTANCE_ID") => ({
  name: "echo",
  instanceCount: instances,
  defaultConfig: {
    resource: { cpuLimit: 0.5, memLimitMb: 64 },
    command: { value: command },
  },
});

describe("job manager on mesos-sim", () => {
  it("runs a batch job of echo to SUCCEEDED, every instance with its events, and the job SUCCEEDED", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    const pool = await leafPool(gateway, "batch", ROOMY);
    const jobId = await submit(gateway, pool, echoJob(4));
    await allIn(jobId, "SUCCEEDED");
    await expect.poll(() => jobState(jobId)).toBe("SUCCEEDED");
    const events = await eventsOf(jobId, 2);
    // LAUNCHED is written only when the cluster has not reported on the run soon after the launch.
    expect(
      events
        .filter((e) => e.state !== "LAUNCHED")
        .map(
          (e) =>
            `${e.previous_state === "LAUNCHED" ? "LAUNCHING" : (e.previous_state ?? "-")}→${e.state} ${e.source}`,
        ),
    ).toEqual([
      "-→PENDING JOB_MANAGER",
      "PENDING→READY RESOURCE_MANAGER",
      "READY→LAUNCHING PLACEMENT",
      "LAUNCHING→STARTING HOST_MANAGER",
      "STARTING→RUNNING HOST_MANAGER",
      "RUNNING→SUCCEEDED HOST_MANAGER",
    ]);
    expect(events[2]!.message).toMatch(/^placed on a[12]\.test, score/);
    const [job] = await gateway.jobs.list({ limit: 1 }).then((p) => p.items);
    expect(job!.taskStats).toEqual({ SUCCEEDED: 4 });
  });

  it("retries a failing command per its restart policy, then leaves it FAILED and the job FAILED", async () => {
    const { runtime } = await startSystem([agent("a1.test")]);
    const pool = await leafPool(gateway, "batch", ROOMY);
    const jobId = await submit(gateway, pool, {
      ...echoJob(1, "echo trying >&2; exit 3"),
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "echo trying >&2; exit 3" },
        restartPolicy: { maxFailures: 3 },
      },
    });
    await expect.poll(() => jobState(jobId), { timeout: 20_000 }).toBe("FAILED");
    const [task] = await tasksOf(jobId);
    expect(task).toMatchObject({ state: "FAILED", run_id: 3, failure_count: 3 });
    const events = await eventsOf(jobId, 0);
    expect(events.filter((e) => e.state === "FAILED").map((e) => e.run_id)).toEqual([1, 2, 3]);
    const retry = events.find((e) => e.state === "INITIALIZED")!;
    expect(retry).toMatchObject({
      run_id: 2,
      source: "JOB_MANAGER",
      reason: "RESTART_AFTER_FAILURE",
    });
    expect(retry.message).toBe("retrying as run 2: 1 failures so far, within its restart policy");
    // Each run's stderr is kept in its own sandbox: read through the leader's
    // adapter, and from storage alone as any replica reads it (the API's process).
    const req = { jobId, instance: 0, run: 2, file: "stderr", offset: 0, length: 1000 } as const;
    const viaAdapter = await runtime.hostManager!.taskLog(req);
    expect(viaAdapter.ok && viaAdapter.chunk.data).toBe("trying\n");
    const viaReplica = await clusterLogs(readOnlyView(gateway)).taskLog(req);
    expect(viaReplica).toEqual(viaAdapter);
  });

  it("keeps tasks PENDING with the admission reason when the pool has no room", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    const small = {
      cpu: { reservation: 1, limit: 1, share: 1 },
      memory: { reservation: 4096, limit: 4096, share: 1 },
    };
    const pool = await leafPool(gateway, "small", small);
    const jobId = await submit(gateway, pool, {
      ...echoJob(4),
      labels: [{ key: SIM_DURATION_KEY, value: "600000" }],
    });
    await expect
      .poll(async () => (await statesOf(jobId)).sort(), { timeout: 20_000 })
      .toEqual(["PENDING", "PENDING", "RUNNING", "RUNNING"]);
    const waiting = (await tasksOf(jobId)).filter((t) => t.state === "PENDING");
    expect(waiting.map((t) => t.reason)).toEqual(["POOL_OVER_ENTITLEMENT", "BEHIND_BLOCKED_GANG"]);
    expect(waiting[0]!.message).toBe(
      "1st in pool /small's non-preemptible queue: pool /small is at its cpu entitlement: 1 of 1 cores allocated, this task needs 0.5",
    );
    expect(waiting[1]!.message).toMatch(
      /^2nd in pool \/small's non-preemptible queue: waiting .* behind \S+\/\d+, which does not fit/,
    );
  });

  it("stops a running service (every instance killed, the job KILLED), starts it again, deletes it", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    const pool = await leafPool(gateway, "services", ROOMY);
    const jobId = await submit(gateway, pool, {
      ...echoJob(3, "sleep 600"),
      type: "SERVICE",
    });
    await allIn(jobId, "RUNNING");
    await expect.poll(() => jobState(jobId)).toBe("RUNNING");
    const stopped = await actOnJob(
      gateway,
      jobId,
      { kind: "stop" },
      { login: "alice", via: "test" },
    );
    expect(stopped.ok).toBe(true);
    await allIn(jobId, "KILLED");
    await expect.poll(() => jobState(jobId)).toBe("KILLED");
    const events = await eventsOf(jobId, 1);
    expect(
      events.slice(-2).map((e) => `${e.previous_state}→${e.state} ${e.source} ${e.reason}`),
    ).toEqual([
      "RUNNING→KILLING JOB_MANAGER STOP_REQUESTED",
      "KILLING→KILLED HOST_MANAGER TASK_KILLED",
    ]);

    // Started again: every instance gets a new run; then deleted: killed, and the job is gone.
    expect(
      (await actOnJob(gateway, jobId, { kind: "start" }, { login: "alice", via: "test" })).ok,
    ).toBe(true);
    await allIn(jobId, "RUNNING");
    expect((await tasksOf(jobId)).map((t) => t.run_id)).toEqual([2, 2, 2]);
    expect(
      (await actOnJob(gateway, jobId, { kind: "delete" }, { login: "alice", via: "test" })).ok,
    ).toBe(true);
    await allIn(jobId, "DELETED");
    await expect.poll(() => jobState(jobId)).toBe("DELETED");
    expect((await gateway.jobs.list({ limit: 10 })).items).toEqual([]);
  });

  it("scales a service up and down, and restarts one instance as a new run", async () => {
    await startSystem([agent("a1.test"), agent("a2.test")]);
    const pool = await leafPool(gateway, "services", ROOMY);
    const jobId = await submit(gateway, pool, {
      ...echoJob(2),
      type: "SERVICE",
      labels: [{ key: SIM_DURATION_KEY, value: "600000" }],
    });
    await allIn(jobId, "RUNNING");
    expect(
      (
        await actOnJob(
          gateway,
          jobId,
          { kind: "scale", instanceCount: 3 },
          { login: "alice", via: "test" },
        )
      ).ok,
    ).toBe(true);
    await expect
      .poll(() => statesOf(jobId), { timeout: 20_000 })
      .toEqual(["RUNNING", "RUNNING", "RUNNING"]);

    await actOnJob(
      gateway,
      jobId,
      { kind: "restart", instances: [{ from: 0, to: 0 }] },
      { login: "alice", via: "test" },
    );
    await expect
      .poll(async () => (await tasksOf(jobId))[0], { timeout: 20_000 })
      .toMatchObject({ state: "RUNNING", run_id: 2 });
    const restarted = (await eventsOf(jobId, 0))
      .filter((e) => e.state !== "LAUNCHED")
      .map((e) => `${e.run_id} ${e.state}`);
    const from = restarted.indexOf("1 KILLING");
    expect(restarted.slice(from)).toEqual([
      "1 KILLING",
      "1 KILLED",
      "2 INITIALIZED",
      "2 PENDING",
      "2 READY",
      "2 LAUNCHING",
      "2 STARTING",
      "2 RUNNING",
    ]);
    const restartEvents = await eventsOf(jobId, 0);
    expect(restartEvents.find((e) => e.state === "KILLING")?.reason).toBe("RESTART_REQUESTED");

    await actOnJob(
      gateway,
      jobId,
      { kind: "scale", instanceCount: 1 },
      { login: "alice", via: "test" },
    );
    await expect
      .poll(() => statesOf(jobId), { timeout: 20_000 })
      .toEqual(["RUNNING", "DELETED", "DELETED"]);
    await expect.poll(() => jobState(jobId)).toBe("RUNNING");
  });
});
