/**
 * Host maintenance end to end on mesos-sim (issue 17 §3): a service with
 * sla.maximumUnavailableInstances 1 and several instances on one host. Its
 * maintenance evicts them one at a time (never more than one instance of the
 * job down, sampled throughout), each killed with reason HOST_MAINTENANCE
 * and started elsewhere without counting as a failure; the empty host goes
 * DRAINED, then DOWN on the master (its maintenance status says so).
 * Completing the maintenance brings it UP, and its agent back. An unknown
 * host is refused with nothing changed.
 */
import { getMaintenanceStatus } from "@peloton/mesos";
import {
  agent,
  leafPool,
  ROOMY,
  startSystem,
  submit,
  tasksOf,
} from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { actOnHost } from "../src/hostmgr/host-actions.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const OPERATOR = { login: "ops", via: "test" };

async function hostState(hostname: string): Promise<{ state: string; goal: string } | undefined> {
  const [row] = await directSql<{ state: string; goal: string }>(
    "SELECT state::text, goal_state::text AS goal FROM hosts WHERE hostname = $1",
    [hostname],
  );
  return row;
}

describe("host maintenance on mesos-sim", () => {
  it("evicts one instance at a time within the SLA, reaches DOWN, and complete brings it UP", async () => {
    // Only the first host at first: every instance lands there.
    const { sim } = await startSystem([agent("maint-1", { resources: { cpus: 8, mem: 8192 } })]);
    const pool = await leafPool(gateway, "web", ROOMY);
    const jobId = await submit(gateway, pool, {
      name: "web",
      type: "SERVICE",
      instanceCount: 4,
      sla: { maximumUnavailableInstances: 1 },
      defaultConfig: {
        resource: { cpuLimit: 0.5, memLimitMb: 64 },
        command: { value: "sleep 600" },
      },
    });
    await expect
      .poll(async () => (await tasksOf(jobId)).map((t) => [t.state, t.hostname]), {
        timeout: 20_000,
      })
      .toEqual(Array.from({ length: 4 }, () => ["RUNNING", "maint-1"]));
    await sim.addAgent(agent("maint-2", { resources: { cpus: 8, mem: 8192 } }));
    await expect
      .poll(() => hostState("maint-2"), { timeout: 10_000 })
      .toMatchObject({ state: "UP" });

    // Unavailable instances, sampled every 25 ms from the start of the maintenance to DOWN.
    let worst = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await directSql<{ down: number }>(
          "SELECT count(*)::int AS down FROM tasks WHERE job_id = $1 AND state <> 'RUNNING'",
          [jobId],
        );
        worst = Math.max(worst, row!.down);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();

    const started = await actOnHost(
      gateway,
      "maint-1",
      "startMaintenance",
      OPERATOR,
      "kernel upgrade",
    );
    expect(started).toMatchObject({ ok: true, host: { state: "DRAINING", goalState: "DOWN" } });
    await expect
      .poll(() => hostState("maint-1"), { timeout: 40_000, interval: 100 })
      .toEqual({
        state: "DOWN",
        goal: "DOWN",
      });
    sampling = false;
    await sampler;

    expect(worst).toBe(1);
    const tasks = await tasksOf(jobId);
    expect(tasks.map((t) => [t.state, t.hostname, t.failure_count])).toEqual(
      Array.from({ length: 4 }, () => ["RUNNING", "maint-2", 0]),
    );
    const kills = await directSql<{ instance_id: number; state: string; reason: string }>(
      `SELECT instance_id, state::text, reason FROM task_events
       WHERE job_id = $1 AND reason = 'HOST_MAINTENANCE' ORDER BY id`,
      [jobId],
    );
    // Each instance: the eviction's kill (KILLING) and the end of the run it replaced (KILLED).
    expect(new Set(kills.map((k) => k.instance_id))).toEqual(new Set([0, 1, 2, 3]));
    expect(new Set(kills.map((k) => k.state))).toEqual(new Set(["KILLING", "KILLED"]));
    // On the master: the machine is DOWN, and its agent is gone.
    const status = await getMaintenanceStatus(sim.url);
    expect(status.down_machines?.map((m) => m.hostname)).toEqual(["maint-1"]);
    expect(sim.agents().map((a) => a.hostname)).toEqual(["maint-2"]);
    const history = await directSql<{ kind: string; from_state: string; to_state: string | null }>(
      "SELECT kind, from_state::text, to_state::text FROM host_maintenance_events WHERE hostname = 'maint-1' ORDER BY id",
    );
    expect(history).toEqual([
      { kind: "START", from_state: "UP", to_state: "DRAINING" },
      { kind: "STATE", from_state: "DRAINING", to_state: "DRAINED" },
      { kind: "STATE", from_state: "DRAINED", to_state: "DOWN" },
    ]);

    const completed = await actOnHost(gateway, "maint-1", "completeMaintenance", OPERATOR);
    expect(completed).toMatchObject({ ok: true, host: { state: "DOWN", goalState: "UP" } });
    await expect
      .poll(() => hostState("maint-1"), { timeout: 20_000 })
      .toEqual({
        state: "UP",
        goal: "UP",
      });
    expect(await getMaintenanceStatus(sim.url)).toEqual({
      draining_machines: [],
      down_machines: [],
    });
    await expect
      .poll(
        () =>
          sim
            .agents()
            .map((a) => a.hostname)
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(["maint-1", "maint-2"]);
    // Registered again, the host stays UP (not LOST, not back in maintenance).
    await new Promise((r) => setTimeout(r, 600));
    expect(await hostState("maint-1")).toEqual({ state: "UP", goal: "UP" });
  });

  it("refuses maintenance on an unknown host, changing nothing", async () => {
    await startSystem([agent("known-1")]);
    await expect
      .poll(() => hostState("known-1"), { timeout: 10_000 })
      .toMatchObject({ state: "UP" });
    const before = await directSql("SELECT hostname, state::text, goal_state::text FROM hosts");
    expect(await actOnHost(gateway, "ghost.test", "startMaintenance", OPERATOR, "x")).toEqual({
      ok: false,
      failure: { kind: "not_found" },
    });
    expect(await directSql("SELECT hostname, state::text, goal_state::text FROM hosts")).toEqual(
      before,
    );
    expect(await directSql("SELECT * FROM host_maintenance_events")).toEqual([]);
    // Only the host's own rows count: the scheduler's "took the lead" row is not a change.
    expect(await directSql("SELECT * FROM audit_log WHERE target_type = 'host'")).toEqual([]);
  });
});
