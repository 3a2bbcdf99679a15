/**
 * mesos-sim with checkpointing: a sim killed with SIGKILL (or stopped) and
 * started again on the same data dir keeps its agents, re-adopts the task
 * processes still running, reports the ones that ended meanwhile, keeps
 * volumes, and answers reconciliation truthfully. Without a checkpoint, no
 * task process outlives the sim.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimCli } from "@peloton/test-support/mesos/sim-cli.ts";
import {
  commandProcesses,
  killTaskProcesses,
  taskProcesses,
} from "@peloton/test-support/mesos/task-processes.ts";
import { describe, expect, it } from "vitest";
import {
  type MesosClientOptions,
  MesosSchedulerClient,
  type Offer,
  readSandboxFile,
  scalarResource,
  startMesosSim,
  type TaskInfo,
  type TaskState,
  type TaskStatus,
  volumeResource,
} from "../src/index.ts";
import { CheckpointStore } from "../src/sim/checkpoint/store.ts";
import { agentResources } from "../src/sim/cluster.ts";
import { type EventLog, record } from "./support/events.ts";
import {
  client,
  cpuMem,
  FAST,
  frameworkInfo,
  onCleanup,
  shellTask,
  simTask,
} from "./support/harness.ts";

/**
 * A framework that acknowledges every update from the very first one (the
 * re-sent updates arrive in SUBSCRIBED's chunk), except those `skip` names.
 */
async function ackingClient(
  master: { url: string },
  opts: Partial<MesosClientOptions>,
  skip: (status: TaskStatus) => boolean = () => false,
): Promise<{ client: MesosSchedulerClient; log: EventLog; frameworkId: string }> {
  const c = new MesosSchedulerClient({
    master: master.url,
    frameworkInfo: checkpointing,
    backoff: { initialMs: 20, maxMs: 200 },
    requestTimeoutMs: 5000,
    ...opts,
  });
  onCleanup(() => c.stop());
  const log = record(c);
  c.on("update", (status) => {
    if (!skip(status)) c.acknowledge(status).catch(() => {});
  });
  const info = await c.start();
  return { client: c, log, frameworkId: info.frameworkId };
}

/** The agent's own (reliable, uuid-carrying) update, not a reconciliation answer. */
async function agentUpdate(log: EventLog, taskId: string, state: TaskState): Promise<TaskStatus> {
  const e = await log.waitFor(
    (x) =>
      x.type === "UPDATE" &&
      x.update.status.task_id.value === taskId &&
      x.update.status.state === state &&
      x.update.status.uuid !== undefined,
    { timeoutMs: 5000, what: `${taskId} ${state} from the agent` },
  );
  return (e as Extract<typeof e, { type: "UPDATE" }>).update.status;
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mesos-sim-ckpt-"));
  onCleanup(() => {
    killTaskProcesses(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

const checkpointing = frameworkInfo({ roles: ["db"], checkpoint: true, failover_timeout: 120 });

const AGENTS = [
  { hostname: "ckpt-a", resources: { cpus: 4, mem: 4096, disk: 4096 } },
  { hostname: "ckpt-b", resources: { cpus: 4, mem: 4096, disk: 4096 } },
];

function sleeper(id: string, agentId: string, extra: Partial<TaskInfo> = {}): TaskInfo {
  return { ...shellTask(id, agentId, "sleep 600"), resources: cpuMem(0.5, 64, "db"), ...extra };
}

function offerOn(offers: readonly Offer[], agentId: string): Offer {
  const o = offers.find((x) => x.agent_id.value === agentId);
  if (o === undefined) throw new Error(`no offer on ${agentId}`);
  return o;
}

describe("mesos-sim checkpointing", () => {
  it("survives kill -9: same agents, running tasks re-adopted once, dead ones reported, volume kept", async () => {
    const dir = dataDir();
    const agentFile = join(dir, "agents.json");
    writeFileSync(agentFile, JSON.stringify(AGENTS));
    const simDir = join(dir, "sim");
    const args = ["--sandbox-dir", simDir, "--agents", agentFile, "--heartbeat", "0.3", "--quiet"];
    const first = await startSimCli(args);
    onCleanup(() => {
      first.child.kill("SIGKILL");
    });
    expect(first.checkpointing).toBe(true);
    // One sim per data dir: a second one would corrupt the checkpoint.
    await expect(startMesosSim({ sandboxDir: simDir, agents: AGENTS })).rejects.toThrow(
      /in use by another mesos-sim/,
    );

    const one = await ackingClient(first, {});
    const offers = await one.log.offers();
    const agentIds = offers.map((o) => o.agent_id.value).sort();
    expect(agentIds).toHaveLength(2);
    const [a, b] = agentIds as [string, string];
    const agentPorts = new Map(offers.map((o) => [o.agent_id.value, o.url!.address.port]));

    // A persistent volume on agent a, written by a task that then keeps running.
    const volume = volumeResource({
      role: "db",
      sizeMb: 512,
      persistenceId: "vol-keep",
      containerPath: "data",
      allocationRole: "db",
    });
    const reserved = scalarResource("disk", 512, { role: "db", allocationRole: "db" });
    await one.client.accept(
      [offerOn(offers, a).id],
      [
        { type: "RESERVE", reserve: { resources: [reserved] } },
        { type: "CREATE", create: { volumes: [volume] } },
        {
          type: "LAUNCH",
          launch: {
            task_infos: [
              {
                ...shellTask("t-vol", a, "echo kept > data/file; exec sleep 600"),
                resources: [...cpuMem(0.5, 64, "db"), volume],
              },
              sleeper("t-alive", a),
            ],
          },
        },
      ],
      { refuse_seconds: 0 },
    );
    await one.client.launch(
      [offerOn(offers, b).id],
      [sleeper("t-cmd-killed", b), sleeper("t-exec-killed", b)],
      { refuse_seconds: 0 },
    );
    for (const id of ["t-vol", "t-alive", "t-cmd-killed", "t-exec-killed"]) {
      await one.log.update(id, "TASK_RUNNING", { timeoutMs: 10_000 });
    }
    await expect.poll(() => commandProcesses(simDir, "t-alive", "sleep 600").length).toBe(1);
    const alivePid = commandProcesses(simDir, "t-alive", "sleep 600")[0]!.pid;
    const volPid = commandProcesses(simDir, "t-vol", "sleep 600")[0]!.pid;
    await one.client.stop();

    // The crash: the master and its agents vanish at once.
    first.child.kill("SIGKILL");
    await first.exited;
    // While it is down, one task's command is killed, another's whole process group.
    process.kill(commandProcesses(simDir, "t-cmd-killed", "sleep 600")[0]!.pid, "SIGKILL");
    const execKilled = taskProcesses(simDir).filter(
      (p) => p.env.get("MESOS_TASK_ID") === "t-exec-killed",
    );
    for (const p of execKilled) process.kill(p.pid, "SIGKILL");
    await expect
      .poll(
        () =>
          taskProcesses(simDir).filter(
            (p) =>
              p.env.get("MESOS_TASK_ID") !== "t-vol" && p.env.get("MESOS_TASK_ID") !== "t-alive",
          ).length,
      )
      .toBe(0);

    const second = await startSimCli(args);
    onCleanup(() => {
      second.child.kill("SIGKILL");
    });
    expect(second.recovered).toMatchObject({ agents: 2, frameworks: 1, tasks: 4 });

    const two = await ackingClient(second, { frameworkId: one.frameworkId });
    expect(two.frameworkId).toBe(one.frameworkId);
    // The agents are back under their ids, at their old addresses (stored agent URLs stay good).
    const offersAgain = await two.log.offers();
    for (const o of offersAgain) {
      expect(agentPorts.get(o.agent_id.value)).toBe(o.url!.address.port);
    }

    // The tasks that died while the sim was down, as their executor saw them.
    const cmdKilled = await agentUpdate(two.log, "t-cmd-killed", "TASK_FAILED");
    expect(cmdKilled).toMatchObject({
      reason: "REASON_COMMAND_EXECUTOR_FAILED",
      message: "Command terminated with signal SIGKILL",
    });
    const execDied = await agentUpdate(two.log, "t-exec-killed", "TASK_FAILED");
    expect(execDied).toMatchObject({
      reason: "REASON_EXECUTOR_TERMINATED",
      source: "SOURCE_AGENT",
    });

    // Reconciliation: the survivors run, on the agents they ran on (same ids).
    const mark = two.log.events.length;
    await two.client.reconcile([
      { taskId: "t-alive", agentId: a },
      { taskId: "t-vol", agentId: a },
    ]);
    const alive = await two.log.update("t-alive", "TASK_RUNNING", { from: mark });
    expect(alive).toMatchObject({ reason: "REASON_RECONCILIATION", agent_id: { value: a } });
    await two.log.update("t-vol", "TASK_RUNNING", { from: mark });

    // Exactly the same processes: adopted, not started again.
    expect(commandProcesses(simDir, "t-alive", "sleep 600").map((p) => p.pid)).toEqual([alivePid]);
    expect(commandProcesses(simDir, "t-vol", "sleep 600").map((p) => p.pid)).toEqual([volPid]);

    // The volume and its reservation are offered again once t-vol ends; its data is kept.
    const killMark = two.log.events.length;
    await two.client.kill("t-vol", a);
    await two.log.update("t-vol", "TASK_KILLED", { from: killMark, timeoutMs: 8000 });
    const volumeOffer = await two.log.waitFor(
      (e) =>
        e.type === "OFFERS" &&
        (e.offers.offers ?? []).some((o) =>
          (o.resources ?? []).some((r) => r.disk?.persistence?.id === "vol-keep"),
        ),
      { from: killMark, timeoutMs: 8000, what: "an offer with vol-keep" },
    );
    expect(volumeOffer.type).toBe("OFFERS");
    const volumeDir = join(simDir, "slaves", a, "volumes", "roles", "db", "vol-keep");
    expect(readFileSync(join(volumeDir, "file"), "utf8")).toBe("kept\n");

    // A kill of an adopted task reaches its process group.
    await two.client.kill("t-alive", a);
    await two.log.update("t-alive", "TASK_KILLED", { timeoutMs: 8000 });
    await expect.poll(() => taskProcesses(simDir).length, { timeout: 5000 }).toBe(0);
  }, 60_000);

  it("stop() leaves tasks running; the next sim adopts them and re-sends unacknowledged updates", async () => {
    const dir = dataDir();
    const opts = { ...FAST, agents: AGENTS, sandboxDir: dir, killGracePeriodSeconds: 1 };
    const first = await startMesosSim(opts);
    onCleanup(() => first.stop({ killTasks: true }));
    expect(first.checkpointing).toBe(true);
    // Acknowledges all but RUNNING of s1.
    const one = await ackingClient(
      first,
      {},
      (st) => st.task_id.value === "s1" && st.state === "TASK_RUNNING",
    );
    const [offer, more] = await one.log.offers();
    const agentId = offer!.agent_id.value;
    await one.client.launch(
      [offer!.id],
      [
        sleeper("s1", agentId),
        { ...simTask("sim-1", agentId, 4000), resources: cpuMem(0.1, 32, "db") },
      ],
    );
    const running = await one.log.update("s1", "TASK_RUNNING", { timeoutMs: 5000 });
    await one.log.update("sim-1", "TASK_RUNNING");
    // A task that finished (acknowledged) before the stop: its logs stay readable.
    await one.client.launch(
      [more!.id],
      [
        {
          ...shellTask("echo-1", more!.agent_id.value, "echo hi"),
          resources: cpuMem(0.1, 32, "db"),
        },
      ],
    );
    await one.log.update("echo-1", "TASK_FINISHED", { timeoutMs: 5000 });
    await expect.poll(() => first.tasks().some((t) => t.taskId === "echo-1")).toBe(false);
    // Not acknowledged: the restarted sim must send it again, same uuid.
    await one.client.stop();
    await first.stop();
    await expect.poll(() => commandProcesses(dir, "s1", "sleep 600").length).toBe(1);

    const second = await startMesosSim(opts);
    onCleanup(() => second.stop({ killTasks: true }));
    expect(
      second
        .agents()
        .map((x) => x.id)
        .sort(),
    ).toEqual(
      first
        .agents()
        .map((x) => x.id)
        .sort(),
    );
    expect(second.tasks().find((t) => t.taskId === "s1")).toMatchObject({ state: "TASK_RUNNING" });
    // Its resources are in use on its agent.
    const used = second.agents().find((x) => x.id === agentId)!.used;
    expect(used.find((r) => r.name === "cpus")?.scalar?.value).toBe(0.6);

    const two = await ackingClient(second, { frameworkId: one.frameworkId });
    const again = await agentUpdate(two.log, "s1", "TASK_RUNNING");
    expect(again.uuid).toBe(running.uuid);
    const logs = await readSandboxFile({
      agent: more!.url!,
      frameworkId: one.frameworkId,
      taskId: "echo-1",
    });
    expect(logs.data).toBe("hi\n");
    // The checkpoint itself (TaskInfos, environments) is no sandbox file: not served.
    const meta = encodeURIComponent(join(dir, "meta", "checkpoint.json"));
    expect((await fetch(`${second.url}/files/read?path=${meta}`)).status).toBe(404);
    // The simulated run goes on where it was and ends on time.
    await two.log.update("sim-1", "TASK_FINISHED", { timeoutMs: 6000 });

    // stop({ killTasks: true }): nothing survives, and the next sim reports the kill.
    await second.stop({ killTasks: true });
    expect(commandProcesses(dir, "s1", "sleep 600")).toHaveLength(0);
    const third = await startMesosSim(opts);
    onCleanup(() => third.stop({ killTasks: true }));
    const three = await ackingClient(third, { frameworkId: one.frameworkId });
    await agentUpdate(three.log, "s1", "TASK_KILLED");
  }, 30_000);

  it("does not recover the tasks of a framework without checkpoint: they are killed", async () => {
    const dir = dataDir();
    const opts = { ...FAST, agents: AGENTS, sandboxDir: dir };
    const first = await startMesosSim(opts);
    onCleanup(() => first.stop({ killTasks: true }));
    const one = await ackingClient(first, { frameworkInfo: frameworkInfo({ roles: ["db"] }) });
    const [offer] = await one.log.offers();
    await one.client.launch([offer!.id], [sleeper("plain", offer!.agent_id.value)]);
    await one.log.update("plain", "TASK_RUNNING", { timeoutMs: 5000 });
    await one.client.stop();
    await first.stop();
    await expect.poll(() => commandProcesses(dir, "plain", "sleep 600").length).toBe(1);

    const second = await startMesosSim(opts);
    onCleanup(() => second.stop({ killTasks: true }));
    expect(second.recovery).toMatchObject({ frameworks: 0, tasks: 0, killed: 1 });
    await expect.poll(() => taskProcesses(dir).length).toBe(0);
    // Unknown now: reconciliation says so, as for any task the agent does not know.
    const two = await client(second, {
      frameworkInfo: frameworkInfo({ roles: ["db"] }),
      frameworkId: one.frameworkId,
    });
    await two.client.reconcile([{ taskId: "plain", agentId: offer!.agent_id.value }]);
    await two.log.update("plain", "TASK_LOST");
  }, 30_000);

  it("without a checkpoint, stop() leaves no task process behind", async () => {
    const s = await startMesosSim({ ...FAST, agents: AGENTS });
    onCleanup(() => s.stop());
    expect(s.checkpointing).toBe(false);
    const c = await ackingClient(s, { frameworkInfo: frameworkInfo({ roles: ["db"] }) });
    const [offer] = await c.log.offers();
    await c.client.launch([offer!.id], [sleeper("temp-1", offer!.agent_id.value)]);
    await c.log.update("temp-1", "TASK_RUNNING", { timeoutMs: 5000 });
    const root = s.sandboxRoot;
    // RUNNING comes at the spawn, maybe before the shell has become `sleep`.
    await expect.poll(() => commandProcesses(root, "temp-1", "sleep 600").length).toBe(1);
    await s.stop();
    expect(taskProcesses(root)).toHaveLength(0);
    expect(existsSync(root)).toBe(false);
  });

  it("reports a missing program as a launch failure, with or without checkpointing", async () => {
    for (const checkpoint of [false, true]) {
      const s = await startMesosSim({
        ...FAST,
        agents: AGENTS,
        ...(checkpoint ? { sandboxDir: dataDir() } : {}),
      });
      onCleanup(() => s.stop({ killTasks: true }));
      const c = await ackingClient(s, { frameworkInfo: frameworkInfo({ roles: ["db"] }) });
      const [offer] = await c.log.offers();
      const task: TaskInfo = {
        ...sleeper("missing", offer!.agent_id.value),
        command: { shell: false, value: "/no/such/program", arguments: ["prog"] },
      };
      await c.client.launch([offer!.id], [task]);
      const failed = await agentUpdate(c.log, "missing", "TASK_FAILED");
      expect(failed, `checkpoint ${checkpoint}`).toMatchObject({
        reason: "REASON_CONTAINER_LAUNCH_FAILED",
        message: "Failed to launch the command: spawn /no/such/program ENOENT",
      });
      await c.client.stop();
      await s.stop({ killTasks: true });
    }
  });

  it("recovers a task group with its executor: resources held once, a kill ends the group", async () => {
    const dir = dataDir();
    const opts = {
      ...FAST,
      agents: AGENTS.slice(0, 1),
      sandboxDir: dir,
      killGracePeriodSeconds: 1,
    };
    const first = await startMesosSim(opts);
    onCleanup(() => first.stop({ killTasks: true }));
    const one = await ackingClient(first, {});
    const [offer] = await one.log.offers();
    const agentId = offer!.agent_id.value;
    await one.client.launchGroup(
      [offer!.id],
      { type: "DEFAULT", executor_id: { value: "pod-1" }, resources: cpuMem(0.25, 32, "db") },
      [sleeper("pod-1-a", agentId), sleeper("pod-1-b", agentId)],
    );
    await one.log.update("pod-1-a", "TASK_RUNNING", { timeoutMs: 5000 });
    await one.log.update("pod-1-b", "TASK_RUNNING", { timeoutMs: 5000 });
    await expect.poll(() => first.tasks().every((t) => t.pendingUpdates === 0)).toBe(true);
    const usedBefore = first.agents()[0]!.used;
    await one.client.stop();
    await first.stop();

    const second = await startMesosSim(opts);
    onCleanup(() => second.stop({ killTasks: true }));
    expect(second.agents()[0]!.used).toEqual(usedBefore);
    const two = await ackingClient(second, { frameworkId: one.frameworkId });
    await two.client.kill("pod-1-a", agentId);
    await agentUpdate(two.log, "pod-1-a", "TASK_KILLED");
    await agentUpdate(two.log, "pod-1-b", "TASK_KILLED");
    await expect.poll(() => second.agents()[0]!.used).toEqual([]);
    await expect.poll(() => taskProcesses(dir).length, { timeout: 5000 }).toBe(0);
  });

  it("never adopts nor kills a process that merely reuses a recorded pid", async () => {
    const dir = dataDir();
    // An unrelated process, recorded (as if by pid reuse) under a start time it does not have.
    const stranger = spawn("sleep", ["30"], { stdio: "ignore" });
    onCleanup(() => {
      stranger.kill("SIGKILL");
    });
    const spec = AGENTS[0]!;
    const store = CheckpointStore.open(join(dir, "meta"), () => {});
    store.append({
      t: "agent",
      agent: {
        id: "S-old",
        hostname: spec.hostname,
        spec,
        total: agentResources(spec),
        dynamic: false,
      },
    });
    const recorded = (frameworkId: string, taskId: string) => ({
      t: "task" as const,
      task: {
        frameworkId,
        taskId,
        agentId: "S-old",
        executorId: taskId,
        containerId: "c1",
        info: sleeper(taskId, "S-old"),
        resources: cpuMem(0.5, 64, "db"),
        state: "TASK_RUNNING" as const,
        sandbox: join(dir, "sandbox"),
        group: undefined,
        killRequested: false,
        run: {
          kind: "process" as const,
          metaDir: join(dir, "nowhere"),
          pid: stranger.pid!,
          startTime: "1",
        },
      },
    });
    store.append({ t: "framework", framework: { id: "fw-ckpt", info: checkpointing } });
    store.append({ t: "framework", framework: { id: "fw-plain", info: frameworkInfo() } });
    store.append(recorded("fw-ckpt", "reused"));
    store.append(recorded("fw-plain", "reused-plain"));
    store.close();

    const s = await startMesosSim({ ...FAST, agents: AGENTS, sandboxDir: dir });
    onCleanup(() => s.stop({ killTasks: true }));
    expect(s.recovery).toMatchObject({ frameworks: 1, killed: 0 });
    const c = await ackingClient(s, { frameworkId: "fw-ckpt" });
    const ended = await agentUpdate(c.log, "reused", "TASK_FAILED");
    expect(ended).toMatchObject({ reason: "REASON_EXECUTOR_TERMINATED" });
    // The stranger lives on.
    expect(stranger.exitCode).toBeNull();
    expect(() => process.kill(stranger.pid!, 0)).not.toThrow();
  });

  it("refuses checkpointing without a data dir", async () => {
    await expect(startMesosSim({ checkpoint: true })).rejects.toThrow(/sandboxDir/);
  });
});
