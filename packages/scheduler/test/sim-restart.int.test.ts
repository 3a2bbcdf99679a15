/**
 * `npm start` stopped and started again (issue 13): the scheduler and its
 * in-process mesos-sim restart on the same data dir. The sim re-adopts the
 * task processes from its checkpoint, the scheduler re-subscribes with its
 * stored framework id and reconciles: every instance stays RUNNING in the
 * same run on the same host, nothing is LOST or launched again, one OS
 * process per instance, and a stateful instance keeps its volume. And the
 * same when mesos-sim alone is killed with SIGKILL under a running scheduler.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimCli } from "@peloton/test-support/mesos/sim-cli.ts";
import { killTaskProcesses, taskProcesses } from "@peloton/test-support/mesos/task-processes.ts";
import {
  agent,
  allIn,
  eventsOf,
  leafPool,
  ROOMY,
  startSystem,
  startTestScheduler,
  submit,
  tasksOf,
} from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { onCleanup } from "./support/cluster.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The running `sleep 600` processes of tasks under `dir`, by cluster task id. */
function sleepers(dir: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const p of taskProcesses(dir)) {
    if (p.cmdline !== "sleep 600") continue;
    const id = p.env.get("MESOS_TASK_ID")!;
    out.set(id, [...(out.get(id) ?? []), p.pid]);
  }
  return out;
}

describe("restart of the scheduler and its mesos-sim on the same data dir", () => {
  it("keeps every instance running in its run, with its process and its volume", async () => {
    const dir = mkdtempSync(join(tmpdir(), "peloton-restart-"));
    onCleanup(async () => {
      killTaskProcesses(dir);
      rmSync(dir, { recursive: true, force: true });
    });
    const agents = [agent("r-1.test"), agent("r-2.test")];
    const first = await startSystem(agents, { sandboxDir: dir });
    const pool = await leafPool(gateway, "services", ROOMY);
    const svc = await submit(gateway, pool, {
      name: "svc",
      type: "SERVICE",
      instanceCount: 3,
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "sleep 600" },
      },
    });
    const db = await submit(gateway, pool, {
      name: "db",
      type: "STATEFUL",
      instanceCount: 1,
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "echo kept > data/file; exec sleep 600" },
        volume: { containerPath: "data", sizeMB: 128 },
      },
    });
    await allIn(svc, "RUNNING");
    await allIn(db, "RUNNING");
    const before = [...(await tasksOf(svc)), ...(await tasksOf(db))];
    await expect.poll(() => sleepers(dir).size).toBe(4);
    const processes = sleepers(dir);
    const agentIds = first.sim
      .agents()
      .map((a) => a.id)
      .sort();

    // SIGINT of `npm start`: the scheduler stops (no TEARDOWN), then the sim, leaving tasks running.
    await first.runtime.stop();
    await first.sim.stop();
    expect(sleepers(dir)).toEqual(processes);

    const second = await startSystem(agents, { sandboxDir: dir });
    expect(second.sim.recovery).toMatchObject({ agents: 2, frameworks: 1, tasks: 4, killed: 0 });
    expect(
      second.sim
        .agents()
        .map((a) => a.id)
        .sort(),
    ).toEqual(agentIds);
    // Long enough for re-subscription, reconciliation and several loop periods.
    await expect
      .poll(() => second.runtime.ready().then(() => true), { timeout: 10_000 })
      .toBe(true);
    await new Promise((r) => setTimeout(r, 3_000));

    const after = [...(await tasksOf(svc)), ...(await tasksOf(db))];
    expect(after.map((t) => [t.state, t.run_id, t.hostname, t.failure_count])).toEqual(
      before.map((t) => ["RUNNING", t.run_id, t.hostname, 0]),
    );
    for (const [job, n] of [
      [svc, 3],
      [db, 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const states = (await eventsOf(job, i)).map((e) => e.state);
        expect(states, `${job}/${i}`).not.toContain("LOST");
        expect(
          states.filter((s) => s === "LAUNCHING"),
          `${job}/${i}`,
        ).toHaveLength(1);
      }
    }
    // The very same processes: adopted, none started beside them.
    expect(sleepers(dir)).toEqual(processes);

    // The stateful instance's volume is still on its agent, with its data.
    const [dbTask] = await tasksOf(db);
    const host = second.sim.agents().find((a) => a.hostname === dbTask!.hostname)!;
    const volumeIds = host.total.flatMap((r) =>
      r.disk?.persistence ? [r.disk.persistence.id] : [],
    );
    expect(volumeIds).toHaveLength(1);
    const volumeDir = join(dir, "slaves", host.id, "volumes", "roles");
    const role = host.total.find((r) => r.disk?.persistence)!.reservations?.at(-1)?.role;
    expect(readFileSync(join(volumeDir, role ?? "*", volumeIds[0]!, "file"), "utf8")).toBe(
      "kept\n",
    );
  });

  it("kill -9 of mesos-sim under a running scheduler: it comes back, nothing LOST or relaunched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "peloton-sim-crash-"));
    onCleanup(async () => {
      killTaskProcesses(dir);
      rmSync(dir, { recursive: true, force: true });
    });
    const agentFile = join(dir, "agents.json");
    writeFileSync(agentFile, JSON.stringify([agent("c-1.test"), agent("c-2.test")]));
    const port = await freePort();
    const args = [
      "--port",
      String(port),
      "--sandbox-dir",
      join(dir, "sim"),
      "--agents",
      agentFile,
      "--heartbeat",
      "0.3",
      "--quiet",
    ];
    const first = await startSimCli(args);
    onCleanup(async () => {
      first.child.kill("SIGKILL");
    });
    await startTestScheduler(first.url);
    const pool = await leafPool(gateway, "services", ROOMY);
    const svc = await submit(gateway, pool, {
      name: "svc",
      type: "SERVICE",
      instanceCount: 3,
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "sleep 600" },
      },
    });
    await allIn(svc, "RUNNING");
    const before = await tasksOf(svc);
    await expect.poll(() => sleepers(dir).size).toBe(3);
    const processes = sleepers(dir);

    // The master and its agents crash; they are back two seconds later on the same address.
    first.child.kill("SIGKILL");
    await first.exited;
    await new Promise((r) => setTimeout(r, 2_000));
    const second = await startSimCli(args.map((a) => a));
    onCleanup(async () => {
      second.child.kill("SIGKILL");
    });
    expect(second.url).toBe(first.url);
    expect(second.recovered).toMatchObject({ agents: 2, frameworks: 1, tasks: 3 });

    // The scheduler re-subscribes (heartbeat rule), reconciles, and finds its runs running.
    await new Promise((r) => setTimeout(r, 5_000));
    const after = await tasksOf(svc);
    expect(after.map((t) => [t.state, t.run_id, t.hostname])).toEqual(
      before.map((t) => ["RUNNING", t.run_id, t.hostname]),
    );
    for (let i = 0; i < 3; i++) {
      const states = (await eventsOf(svc, i)).map((e) => e.state);
      expect(states, `instance ${i}`).not.toContain("LOST");
      expect(
        states.filter((s) => s === "LAUNCHING"),
        `instance ${i}`,
      ).toHaveLength(1);
    }
    expect(sleepers(dir)).toEqual(processes);

    // Subscribed to the new sim: new work launches there.
    const more = await submit(gateway, pool, {
      name: "more",
      instanceCount: 1,
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "sleep 600" },
      },
    });
    await allIn(more, "RUNNING");
  });
});
