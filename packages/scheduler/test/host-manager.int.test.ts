/**
 * The host manager against an in-process mesos-sim and the scratch database:
 * hosts from the cluster, launches through the adapter, status updates
 * recorded then acknowledged, reconnection and reconciliation, agent loss.
 */
import { readSandboxFile } from "@peloton/mesos";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { TaskLaunch, TaskStatusUpdate } from "../src/hostmgr/host-adapter.ts";
import { agentUrlFromString } from "../src/hostmgr/mesos/cluster-hosts.ts";
import { EVENT_SOURCES } from "../src/taskwriter/event-sources.ts";
import { batchJob, hostManager, jobStatusHandler, testSim } from "./support/cluster.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const echo = (taskId: string, command = "echo hello"): TaskLaunch => ({
  taskId,
  name: taskId,
  resources: { cpu: 0.1, memMb: 32, diskMb: 0, gpu: 0 },
  command: { value: command },
});

const simulated = (taskId: string, ms: number): TaskLaunch => ({
  ...echo(taskId, "true"),
  labels: { PELOTON_SIM_DURATION_MS: String(ms) },
});

async function eventsOf(taskId: string) {
  return directSql<{
    previous_state: string | null;
    state: string;
    source: string;
    reason: string | null;
  }>(
    "SELECT previous_state::text, state::text, source, reason FROM task_events WHERE task_id = $1 ORDER BY id",
    [taskId],
  );
}

async function taskRow(taskId: string) {
  const [row] = await directSql<{
    state: string;
    hostname: string | null;
    started_at: Date | null;
    finished_at: Date | null;
  }>("SELECT state::text, hostname, started_at, finished_at FROM tasks WHERE id = $1", [taskId]);
  return row!;
}

/** Launches `task` for database task `dbTaskId` on `hostname`, recording the launch first. */
async function launchOn(
  hm: Awaited<ReturnType<typeof hostManager>>,
  hostname: string,
  dbTaskId: string,
  task: TaskLaunch,
) {
  const [lease] = hm.acquire([hostname]);
  expect(lease, `an offer of ${hostname}`).toBeDefined();
  const [row] = await directSql<{ job_id: string; instance_id: number }>(
    "SELECT job_id::text, instance_id FROM tasks WHERE id = $1",
    [dbTaskId],
  );
  const at = new Date();
  await gateway.transaction(async (tx) => {
    const { applied } = await tx.taskChanges.apply([
      {
        taskId: dbTaskId,
        jobId: row!.job_id,
        instanceId: row!.instance_id,
        expect: { state: "PLACED", runId: 1 },
        state: "LAUNCHED",
        reason: "LAUNCHED",
        message: null,
        set: { clusterTaskId: task.taskId, hostname, agentId: lease!.hostId },
        events: [
          {
            runId: 1,
            clusterTaskId: task.taskId,
            previousState: "PLACED",
            state: "LAUNCHED",
            source: EVENT_SOURCES.placement,
            reason: "LAUNCHED",
            message: null,
            hostname,
            agentId: lease!.hostId,
            at,
          },
        ],
      },
    ]);
    expect(applied).toHaveLength(1);
  });
  const result = await hm.launch(lease!.leaseId, [task]);
  expect(result.ok).toBe(true);
  return lease!;
}

describe("host manager on mesos-sim", () => {
  it("records every agent as a host: agent id, attributes, totals, GPUs, ports and its URL", async () => {
    const sim = await testSim();
    await hostManager(gateway, sim);
    const hosts = await directSql<{
      hostname: string;
      agent_id: string;
      attributes: Record<string, string>;
      cpu: number;
      gpu: number;
      ports: number[][];
      state: string;
      agent_url: string | null;
    }>(
      "SELECT hostname, agent_id, attributes, cpu, gpu, ports, state::text, agent_url FROM hosts ORDER BY hostname",
    );
    expect(hosts.map((h) => h.hostname)).toEqual(["cpu-1.test", "gpu-1.test"]);
    expect(hosts[1]).toMatchObject({
      attributes: { zone: "b", gpu_model: "a100" },
      cpu: 16,
      gpu: 2,
      ports: [[31000, 32000]],
      state: "UP",
    });
    const agentIds = sim
      .agents()
      .map((a) => a.id)
      .sort();
    expect(hosts.map((h) => h.agent_id).sort()).toEqual(agentIds);
    // Offers carry the agent's URL; it is kept for sandbox reads.
    await expect
      .poll(
        async () =>
          (await directSql<{ n: number }>("SELECT count(agent_url)::int AS n FROM hosts"))[0]!.n,
      )
      .toBe(2);
  });

  it("launches echo hello: STARTING, RUNNING, SUCCEEDED recorded as task events, each but STARTING acknowledged after its commit", async () => {
    const sim = await testSim();
    const { taskIds } = await batchJob(gateway, 1);
    const taskId = taskIds[0]!;
    // A handler that holds RUNNING back until the test lets it write.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const record = jobStatusHandler(gateway);
    const hm = await hostManager(gateway, sim, async (u) => {
      if (u.clusterState === "TASK_RUNNING") await gate;
      await record(u);
    });
    await launchOn(hm, "cpu-1.test", taskId, echo("hello-0-1"));

    // RUNNING reached the scheduler but is not written: the sim still waits for its ACK.
    await expect
      .poll(() => sim.tasks().find((t) => t.taskId === "hello-0-1")?.state)
      .toBe("TASK_FINISHED");
    expect(sim.tasks().find((t) => t.taskId === "hello-0-1")?.pendingUpdates).toBeGreaterThan(0);
    // STARTING is written (acknowledged when it was queued); RUNNING is held back by the gate.
    await expect.poll(async () => (await taskRow(taskId)).state).toBe("STARTING");
    release();

    await expect.poll(async () => (await taskRow(taskId)).state).toBe("SUCCEEDED");
    expect(
      (await eventsOf(taskId)).map((e) => `${e.previous_state}→${e.state} ${e.source}`),
    ).toEqual([
      "PLACED→LAUNCHED PLACEMENT",
      "LAUNCHED→STARTING HOST_MANAGER",
      "STARTING→RUNNING HOST_MANAGER",
      "RUNNING→SUCCEEDED HOST_MANAGER",
    ]);
    const row = await taskRow(taskId);
    expect(row.started_at).not.toBeNull();
    expect(row.finished_at).not.toBeNull();
    // Every update acknowledged: the master forgets the finished task.
    await expect.poll(() => sim.tasks().length).toBe(0);

    // Its stdout, read the way the API will: the host's agent URL, the framework id, the task id.
    const [host] = await directSql<{ agent_url: string }>(
      "SELECT agent_url FROM hosts WHERE hostname = 'cpu-1.test'",
    );
    const out = await readSandboxFile({
      agent: agentUrlFromString(host!.agent_url),
      frameworkId: hm.frameworkId!,
      taskId: "hello-0-1",
    });
    expect(out.data).toBe("hello\n");
  });

  it("a cut stream: re-subscribes with the stored framework id, reconciles, re-delivered updates are not recorded twice", async () => {
    const sim = await testSim();
    const { taskIds } = await batchJob(gateway, 1);
    const seen: TaskStatusUpdate[] = [];
    const record = jobStatusHandler(gateway);
    const hm = await hostManager(gateway, sim, async (u) => {
      seen.push(u);
      await record(u);
    });
    const [stored] = await directSql<{ framework_id: string }>(
      "SELECT framework_id FROM mesos_frameworks",
    );
    expect(stored?.framework_id).toBe(hm.frameworkId);
    await launchOn(hm, "cpu-1.test", taskIds[0]!, simulated("long-0-1", 60_000));
    await expect.poll(async () => (await taskRow(taskIds[0]!)).state).toBe("RUNNING");

    const mark = seen.length;
    sim.dropStreams();
    // Back, as the same framework, and the running task is reconciled (explicitly and implicitly).
    await expect
      .poll(
        () => seen.slice(mark).filter((u) => u.reconciliation && u.taskId === "long-0-1").length,
        { timeout: 5000 },
      )
      .toBeGreaterThanOrEqual(2);
    expect(hm.frameworkId).toBe(stored?.framework_id);
    expect(sim.frameworkIds()).toEqual([stored?.framework_id]);
    expect((await eventsOf(taskIds[0]!)).filter((e) => e.state === "RUNNING")).toHaveLength(1);
  });

  it("a restarted host manager subscribes as the stored framework and keeps its tasks", async () => {
    const sim = await testSim();
    const { taskIds } = await batchJob(gateway, 1);
    const first = await hostManager(gateway, sim);
    const frameworkId = first.frameworkId;
    await launchOn(first, "gpu-1.test", taskIds[0]!, simulated("keep-0-1", 60_000));
    await expect.poll(async () => (await taskRow(taskIds[0]!)).state).toBe("RUNNING");
    await first.stop();

    const second = await hostManager(gateway, sim);
    expect(second.frameworkId).toBe(frameworkId);
    expect(sim.tasks().map((t) => [t.taskId, t.state])).toEqual([["keep-0-1", "TASK_RUNNING"]]);
  });

  it("an agent lost: its host goes LOST, its run LOST and replaced by a new one; back again, the host is UP", async () => {
    const sim = await testSim();
    const { taskIds } = await batchJob(gateway, 1);
    const hm = await hostManager(gateway, sim);
    const lease = await launchOn(hm, "cpu-1.test", taskIds[0]!, simulated("doomed-0-1", 60_000));
    await expect.poll(async () => (await taskRow(taskIds[0]!)).state).toBe("RUNNING");

    sim.removeAgent(lease.hostId);
    const hostState = async () =>
      (
        await directSql<{ state: string; state_reason: string | null }>(
          "SELECT state::text, state_reason FROM hosts WHERE hostname = 'cpu-1.test'",
        )
      )[0];
    await expect.poll(hostState).toMatchObject({ state: "LOST" });
    // A lost agent is the cluster's failure, not the task's: the batch task gets a new run,
    // queued at once, and its failure count stays 0 (issue 13).
    await expect.poll(async () => (await taskRow(taskIds[0]!)).state).toBe("PENDING");
    expect((await eventsOf(taskIds[0]!)).slice(-3)).toMatchObject([
      { state: "LOST", reason: "REASON_AGENT_REMOVED" },
      { state: "INITIALIZED", reason: "SYSTEM_ENDED" },
      { state: "PENDING", reason: "ENQUEUED" },
    ]);
    expect(await directSql("SELECT failure_count FROM tasks WHERE id = $1", [taskIds[0]])).toEqual([
      { failure_count: 0 },
    ]);
    // No offer of a lost agent stays in the pool.
    expect(hm.hosts().map((h) => h.hostname)).toEqual(["gpu-1.test"]);

    await sim.addAgent({
      id: lease.hostId,
      hostname: "cpu-1.test",
      resources: { cpus: 8, mem: 16384 },
    });
    await expect
      .poll(hostState, { timeout: 5000 })
      .toMatchObject({ state: "UP", state_reason: null });
  });

  it("refuses a launch that does not fit, with the numbers, and sends nothing", async () => {
    const sim = await testSim();
    const hm = await hostManager(gateway, sim);
    const [lease] = hm.acquire(["cpu-1.test"]);
    const result = await hm.launch(lease!.leaseId, [
      { ...echo("big-1"), resources: { cpu: 64, memMb: 32, diskMb: 0, gpu: 0 } },
    ]);
    expect(result).toEqual({
      ok: false,
      refusal: { code: "DOES_NOT_FIT", resource: "cpu", needed: 64, free: 8 },
    });
    expect(await hm.launch(lease!.leaseId, [echo("again")])).toEqual({
      ok: false,
      refusal: { code: "LEASE_UNKNOWN", leaseId: lease!.leaseId },
    });
    expect(sim.tasks()).toEqual([]);
  });

  it("a lease keeps a host's offers from others until released", async () => {
    const sim = await testSim();
    const hm = await hostManager(gateway, sim);
    await expect.poll(() => hm.hosts().length).toBe(2);
    const leases = hm.acquire(["gpu-1.test", "nowhere"]);
    expect(leases.map((l) => [l.hostname, l.free.gpu])).toEqual([["gpu-1.test", 2]]);
    expect(hm.hosts().map((h) => h.hostname)).toEqual(["cpu-1.test"]);
    expect(hm.acquire(["gpu-1.test"])).toEqual([]);
    hm.release(leases.map((l) => l.leaseId));
    expect(
      hm
        .hosts()
        .map((h) => h.hostname)
        .sort(),
    ).toEqual(["cpu-1.test", "gpu-1.test"]);
  });
});
