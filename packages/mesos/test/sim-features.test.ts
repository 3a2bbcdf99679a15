/** mesos-sim behaviours a scheduler relies on, each through the real client. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AgentSpec,
  demoCluster,
  type MesosSchedulerClient,
  type Offer,
  scalarResource,
  volumeResource,
} from "../src/index.ts";
import { client, cpuMem, frameworkInfo, shellTask, sim, simTask } from "./support/harness.ts";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Acknowledges every reliable update as it arrives, like a well-behaved scheduler. */
function autoAck(c: MesosSchedulerClient): void {
  c.on("update", (status) => {
    c.acknowledge(status).catch(() => {});
  });
}

const withCaps = (...caps: string[]) =>
  frameworkInfo({
    capabilities: ["MULTI_ROLE", ...caps].map((type) => ({ type }) as { type: "MULTI_ROLE" }),
  });

describe("offers", () => {
  it("offers GPU agents only to frameworks with GPU_RESOURCES", async () => {
    const s = await sim({ agents: demoCluster({ agents: 4, gpuAgents: 1 }) });
    const plain = await client(s);
    const plainOffers = await plain.log.offers();
    expect(plainOffers).toHaveLength(3);
    expect(plainOffers.every((o) => !o.resources!.some((r) => r.name === "gpus"))).toBe(true);
    await plain.client.stop();

    const gpu = await client(s, { frameworkInfo: withCaps("GPU_RESOURCES") });
    const [gpuOffer] = await gpu.log.offers();
    const all: Offer[] = [
      ...gpu.log.events.flatMap((e) => (e.type === "OFFERS" ? (e.offers.offers ?? []) : [])),
    ];
    expect(gpuOffer).toBeDefined();
    expect(
      all.some((o) => o.resources!.some((r) => r.name === "gpus" && r.scalar!.value === 4)),
    ).toBe(true);
  });

  it("keeps declined resources away for refuse_seconds, and REVIVE brings them back", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    const [first] = await log.offers();
    const t0 = Date.now();
    let mark = log.events.length;
    await c.decline([first!.id], { refuse_seconds: 0.3 });
    const [second] = await log.offers({ from: mark });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(second!.agent_id).toEqual(first!.agent_id);

    mark = log.events.length;
    await c.decline([second!.id], { refuse_seconds: 3600 });
    await c.revive();
    const [third] = await log.offers({ from: mark, timeoutMs: 1000 });
    expect(third!.id).not.toEqual(second!.id);
  });

  it("SUPPRESS stops offers until REVIVE", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    await c.suppress();
    const mark = log.events.length;
    await c.decline([offer!.id], { refuse_seconds: 0 });
    // Heartbeats prove time passes; no OFFERS meanwhile.
    await log.waitFor((e) => e.type === "HEARTBEAT", { from: mark });
    await log.waitFor((e) => e.type === "HEARTBEAT", { from: log.events.length });
    expect(log.events.slice(mark).some((e) => e.type === "OFFERS")).toBe(false);
    await c.revive();
    await log.offers({ from: mark });
  });

  it("rescinds offers left unused past the offer timeout, then offers again", async () => {
    const s = await sim({ agents: 1, offerTimeoutSeconds: 0.2 });
    const { log } = await client(s);
    const [offer] = await log.offers();
    const rescind = await log.waitFor((e) => e.type === "RESCIND");
    expect(rescind).toEqual({ type: "RESCIND", rescind: { offer_id: offer!.id } });
    await log.offers({ from: log.events.indexOf(rescind) });
  });
});

describe("tasks", () => {
  it("answers TASK_ERROR for a task larger than its offer or with a duplicate id", async () => {
    const s = await sim({ agents: [{ resources: { cpus: 1, mem: 1024 } }] });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    const agent = offer!.agent_id.value;
    await c.launch(
      [offer!.id],
      [
        { ...shellTask("big-1", agent, "true"), resources: cpuMem(2, 64) },
        simTask("dup-1", agent, 60_000),
        simTask("dup-1", agent, 60_000),
      ],
    );
    const big = await log.update("big-1", "TASK_ERROR");
    expect(big).toMatchObject({ reason: "REASON_TASK_INVALID", source: "SOURCE_MASTER" });
    expect(big.message).toMatch(
      /^Task uses more resources cpus:2; mem:64 than available cpus:1; mem:1024/,
    );
    expect(big.uuid).toBeUndefined();
    await log.update("dup-1", "TASK_STARTING");
    expect((await log.update("dup-1", "TASK_ERROR")).message).toBe("Task has duplicate ID: dup-1");
  });

  it("runs a simulated task for its PELOTON_SIM_DURATION_MS with its exit code, without a process", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    autoAck(c);
    const [offer] = await log.offers();
    const task = shellTask("sim-1", offer!.agent_id.value, "exit 0", {
      command: {
        value: "exit 0",
        environment: {
          variables: [
            { name: "PELOTON_SIM_DURATION_MS", value: "30" },
            { name: "PELOTON_SIM_EXIT_CODE", value: "2" },
          ],
        },
      },
    });
    await c.launch([offer!.id], [task]);
    const failed = await log.update("sim-1", "TASK_FAILED");
    expect(failed.message).toBe("Command exited with status 2");
    expect(log.updates("sim-1").map((u) => u.state)).toEqual([
      "TASK_STARTING",
      "TASK_RUNNING",
      "TASK_FAILED",
    ]);
    expect(s.sandboxPath("sim-1")).toBeUndefined();
  });

  it("re-sends an unacknowledged update with backoff until acknowledged", async () => {
    const s = await sim({ agents: 1, statusUpdateRetrySeconds: 0.05 });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    await c.launch([offer!.id], [simTask("retry-1", offer!.agent_id.value, 60_000)]);
    const first = await log.update("retry-1", "TASK_STARTING");
    const again = await log.waitFor(
      (e) => e.type === "UPDATE" && e.update.status.uuid === first.uuid,
      { from: log.events.length },
    );
    expect(again.type === "UPDATE" && again.update.status.state).toBe("TASK_STARTING");
    expect(s.tasks()[0]?.pendingUpdates).toBe(2);
    await c.acknowledge(first);
    await log.update("retry-1", "TASK_RUNNING");
  });

  it("reconciles a task in the state its update stream forwards, never ahead of an unacknowledged update", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    const agentId = offer!.agent_id.value;
    await c.launch([offer!.id], [simTask("quick-1", agentId, 1)]);
    const starting = await log.update("quick-1", "TASK_STARTING");
    // The task has finished at the agent; RUNNING and FINISHED wait behind STARTING.
    await expect
      .poll(() => s.tasks()[0])
      .toMatchObject({ state: "TASK_FINISHED", pendingUpdates: 3 });
    const answers = async (from: number) => {
      await c.reconcile([{ taskId: "quick-1", agentId }]);
      const explicit = await log.waitFor(
        (e) => e.type === "UPDATE" && e.update.status.reason === "REASON_RECONCILIATION",
        { from, what: "explicit answer" },
      );
      const mark = log.events.length;
      await c.reconcile();
      const implicit = await log.waitFor(
        (e) => e.type === "UPDATE" && e.update.status.reason === "REASON_RECONCILIATION",
        { from: mark, what: "implicit answer" },
      );
      return [explicit, implicit].map((e) =>
        e.type === "UPDATE" ? e.update.status.state : e.type,
      );
    };
    expect(await answers(log.events.length)).toEqual(["TASK_STARTING", "TASK_STARTING"]);
    await c.acknowledge(starting);
    const running = await log.update("quick-1", "TASK_RUNNING");
    expect(await answers(log.events.length)).toEqual(["TASK_RUNNING", "TASK_RUNNING"]);
    await c.acknowledge(running);
    await log.update("quick-1", "TASK_FINISHED");
    expect(await answers(log.events.length)).toEqual(["TASK_FINISHED", "TASK_FINISHED"]);
  });

  it("KILL: SIGTERM, then SIGKILL after the grace period when the task ignores it", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s, { frameworkInfo: withCaps("TASK_KILLING_STATE") });
    autoAck(c);
    const [offer] = await log.offers();
    await c.launch(
      [offer!.id],
      [
        shellTask(
          "stubborn-1",
          offer!.agent_id.value,
          'trap "echo TERM" TERM; echo ready; while true; do sleep 0.05; done',
        ),
      ],
    );
    await log.update("stubborn-1", "TASK_RUNNING");
    const stdout = join(s.sandboxPath("stubborn-1")!, "stdout");
    await expect.poll(() => readFileSync(stdout, "utf8")).toContain("ready");
    const t0 = Date.now();
    await c.kill("stubborn-1", offer!.agent_id.value, {
      grace_period: { nanoseconds: 300_000_000 },
    });
    await log.update("stubborn-1", "TASK_KILLING");
    const killed = await log.update("stubborn-1", "TASK_KILLED");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(killed.message).toBe("Command terminated with signal SIGKILL");
    expect(readFileSync(stdout, "utf8")).toContain("TERM");
  });

  it("KILL of a task that honours SIGTERM is quick; KILL of an unknown task is answered by the master", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    autoAck(c);
    const [offer] = await log.offers();
    await c.launch([offer!.id], [shellTask("sleepy-1", offer!.agent_id.value, "exec sleep 30")]);
    await log.update("sleepy-1", "TASK_RUNNING");
    await c.kill("sleepy-1");
    expect((await log.update("sleepy-1", "TASK_KILLED")).message).toBe(
      "Command terminated with signal SIGTERM",
    );
    await c.kill("nobody-1");
    expect(await log.update("nobody-1", "TASK_LOST")).toMatchObject({
      source: "SOURCE_MASTER",
      reason: "REASON_TASK_UNKNOWN",
    });
  });

  it("LAUNCH_GROUP runs the tasks under one executor; killing one kills the group", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    autoAck(c);
    const [offer] = await log.offers();
    const agent = offer!.agent_id.value;
    await c.launchGroup(
      [offer!.id],
      { type: "DEFAULT", executor_id: { value: "pod-1" }, resources: cpuMem(0.1, 32) },
      [
        shellTask("pod-1-a", agent, "exec sleep 30"),
        shellTask("pod-1-b", agent, "echo b; exec sleep 30"),
      ],
    );
    const a = await log.update("pod-1-a", "TASK_RUNNING");
    await log.update("pod-1-b", "TASK_RUNNING");
    expect(a.executor_id).toEqual({ value: "pod-1" });
    expect(s.sandboxPath("pod-1-b")).toMatch(/executors\/pod-1\/runs\/[^/]+\/tasks\/pod-1-b$/);
    await c.kill("pod-1-a");
    await log.update("pod-1-a", "TASK_KILLED");
    await log.update("pod-1-b", "TASK_KILLED");
    await expect.poll(() => s.agents()[0]?.used).toEqual([]);
  });
});

describe("agent failure", () => {
  const twoAgents: AgentSpec[] = [
    { id: "agent-1", resources: { cpus: 4, mem: 4096 } },
    { id: "agent-2", resources: { cpus: 4, mem: 4096 } },
  ];

  async function runningOn(agentId: string, caps: string[] = []) {
    const s = await sim({ agents: twoAgents });
    const h = await client(s, { frameworkInfo: withCaps(...caps) });
    autoAck(h.client);
    const offers = await h.log.offers();
    const offer = offers.find((o) => o.agent_id.value === agentId)!;
    await h.client.launch(
      [offer.id],
      [shellTask("victim-1", agentId, "echo $$ > pid; exec sleep 30")],
    );
    await h.log.update("victim-1", "TASK_RUNNING");
    return { s, ...h, offers };
  }

  it("non-partition-aware: TASK_LOST (REASON_AGENT_REMOVED), FAILURE, rescinds; the process dies", async () => {
    const { s, log, offers } = await runningOn("agent-2");
    const other = offers.find((o) => o.agent_id.value === "agent-1")!;
    const pidFile = join(s.sandboxPath("victim-1")!, "pid");
    await expect
      .poll(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")
      .toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    s.removeAgent("agent-2");
    expect(await log.update("victim-1", "TASK_LOST")).toMatchObject({
      reason: "REASON_AGENT_REMOVED",
      source: "SOURCE_MASTER",
      agent_id: { value: "agent-2" },
    });
    await log.waitFor((e) => e.type === "FAILURE" && e.failure.agent_id?.value === "agent-2");
    await expect.poll(() => isAlive(pid)).toBe(false);
    // Offers of other agents stand; the removed agent's outstanding offers are rescinded.
    expect(log.events.some((e) => e.type === "RESCIND")).toBe(false);
    s.removeAgent("agent-1");
    await log.waitFor((e) => e.type === "RESCIND" && e.rescind.offer_id.value === other.id.value);
  });

  it("partition-aware: TASK_UNREACHABLE, reconciled as unreachable, gone after the agent returns", async () => {
    const { s, client: c, log } = await runningOn("agent-2", ["PARTITION_AWARE"]);
    s.removeAgent("agent-2");
    const unreachable = await log.update("victim-1", "TASK_UNREACHABLE");
    expect(unreachable.unreachable_time).toBeDefined();

    let mark = log.events.length;
    await c.reconcile([{ taskId: "victim-1", agentId: "agent-2" }]);
    expect((await log.update("victim-1", "TASK_UNREACHABLE", { from: mark })).message).toBe(
      "Reconciliation: Task is unreachable",
    );

    mark = log.events.length;
    await s.addAgent(twoAgents[1]!);
    await log.waitFor(
      (e) => e.type === "OFFERS" && e.offers.offers!.some((o) => o.agent_id.value === "agent-2"),
      {
        from: mark,
      },
    );
    await c.reconcile([{ taskId: "victim-1", agentId: "agent-2" }]);
    expect((await log.update("victim-1", "TASK_GONE", { from: mark })).message).toBe(
      "Reconciliation: Task is unknown to the agent",
    );
  });

  it("partition-aware, agent removed for good: TASK_GONE_BY_OPERATOR", async () => {
    const { s, log } = await runningOn("agent-1", ["PARTITION_AWARE"]);
    s.removeAgent("agent-1", { gone: true });
    expect(await log.update("victim-1", "TASK_GONE_BY_OPERATOR")).toMatchObject({
      reason: "REASON_AGENT_REMOVED_BY_OPERATOR",
    });
  });
});

describe("persistent volumes", () => {
  it("RESERVE + CREATE, data survives across tasks, DESTROY + UNRESERVE give the disk back", async () => {
    const s = await sim({
      agents: [{ id: "disk-1", resources: { cpus: 2, mem: 2048, disk: 4096 } }],
    });
    const { client: c, log } = await client(s, { frameworkInfo: frameworkInfo({ roles: ["db"] }) });
    autoAck(c);
    const role = { role: "db", allocationRole: "db" };
    const volume = volumeResource({
      role: "db",
      sizeMb: 1024,
      persistenceId: "vol-1",
      containerPath: "data",
      allocationRole: "db",
    });
    const reservedDisk = scalarResource("disk", 1024, role);
    const nextOffer = async (mark: number) => (await log.offers({ from: mark }))[0]!;

    let mark = log.events.length;
    const [offer] = await log.offers();
    await c.accept(
      [offer!.id],
      [
        { type: "RESERVE", reserve: { resources: [reservedDisk] } },
        { type: "CREATE", create: { volumes: [volume] } },
      ],
      { refuse_seconds: 0 },
    );
    let o = await nextOffer(mark + 1);
    expect(o.resources!.find((r) => r.disk?.persistence?.id === "vol-1")).toMatchObject({
      name: "disk",
      role: "db",
      scalar: { value: 1024 },
      disk: { volume: { container_path: "data", mode: "RW" } },
    });
    expect(o.resources!.find((r) => r.name === "disk" && r.role === "*")?.scalar?.value).toBe(3072);

    // A task writes into the volume; a later task reads it back.
    const useVolume = (id: string, cmd: string) => ({
      ...shellTask(id, "disk-1", cmd),
      resources: [...cpuMem(0.1, 32, "db"), volume],
    });
    mark = log.events.length;
    await c.launch([o.id], [useVolume("writer-1", "echo kept > data/file")], { refuse_seconds: 0 });
    await log.update("writer-1", "TASK_FINISHED");
    o = await log
      .waitFor(
        (e) =>
          e.type === "OFFERS" &&
          e.offers.offers!.some((x) =>
            x.resources!.some((r) => r.disk?.persistence?.id === "vol-1"),
          ),
        { from: mark },
      )
      .then((e) => (e.type === "OFFERS" ? e.offers.offers![0]! : (undefined as never)));
    mark = log.events.length;
    await c.launch([o.id], [useVolume("reader-1", "cat data/file")], { refuse_seconds: 0 });
    await log.update("reader-1", "TASK_FINISHED");
    expect(readFileSync(join(s.sandboxPath("reader-1")!, "stdout"), "utf8")).toBe("kept\n");

    o = await log
      .waitFor(
        (e) =>
          e.type === "OFFERS" &&
          e.offers.offers!.some((x) =>
            x.resources!.some((r) => r.disk?.persistence?.id === "vol-1"),
          ),
        { from: mark },
      )
      .then((e) => (e.type === "OFFERS" ? e.offers.offers![0]! : (undefined as never)));
    mark = log.events.length;
    await c.accept(
      [o.id],
      [
        { type: "DESTROY", destroy: { volumes: [volume] } },
        { type: "UNRESERVE", unreserve: { resources: [reservedDisk] } },
      ],
      { refuse_seconds: 0 },
    );
    o = await nextOffer(mark);
    // What the ACCEPT freed comes back unreserved; the agent holds no reservation any more.
    expect(o.resources!.filter((r) => r.name === "disk")).toEqual([
      {
        name: "disk",
        type: "SCALAR",
        scalar: { value: 1024 },
        role: "*",
        allocation_info: { role: "db" },
      },
    ]);
    expect(s.agents()[0]!.total.filter((r) => r.name === "disk")).toEqual([
      { name: "disk", type: "SCALAR", scalar: { value: 4096 }, role: "*" },
    ]);
  });
});
