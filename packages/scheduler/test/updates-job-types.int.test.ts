/**
 * The update workflow for the job types beside SERVICE (issue 17 §1):
 * a STATEFUL job's instances are updated where their volumes are, a
 * DAEMON job's stay one per host, `inPlace` keeps each instance on its
 * host, and rolling STOP and START move instances in batches.
 */
import type { MesosSim } from "@peloton/mesos";
import {
  agent,
  allIn,
  leafPool,
  ROOMY,
  startSystem,
  submit,
  tasksOf,
} from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createUpdate } from "../src/jobmgr/updates/create-update.ts";
import {
  instanceVersions,
  serviceConfig,
  startUpdate,
  UPDATE_DEFAULTS,
  updateOf,
} from "./support/updates.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const TESTER = { login: "tester", via: "test" };

async function succeeded(id: string): Promise<void> {
  await expect
    .poll(async () => (await updateOf(gateway, id)).state, { timeout: 60_000, interval: 200 })
    .toBe("SUCCEEDED");
}

/** Where each instance runs now: `host:state:config version`. */
async function placements(jobId: string): Promise<string[]> {
  const [tasks, versions] = await Promise.all([tasksOf(jobId), instanceVersions(jobId)]);
  return tasks.map((t, i) => `${t.hostname}:${t.state}:${versions[i]?.config_version}`);
}

/** The runs the master has seen per instance of the job, by state. */
function runsOnMaster(sim: MesosSim, jobId: string, state: string): number {
  return sim.tasks().filter((t) => t.taskId.startsWith(jobId) && t.state === state).length;
}

describe("updates of every long-running job type", () => {
  it("STATEFUL: each instance's new run goes back to its volume's host; the volume and its data stay", async () => {
    await startSystem([agent("st-1.test"), agent("st-2.test")]);
    const pool = await leafPool(gateway, "db", ROOMY);
    const db = await submit(gateway, pool, {
      ...serviceConfig(2, "touch data/written-by-v1; exec sleep 600", {
        volume: { containerPath: "data", sizeMB: 64 },
      }),
      name: "db",
      type: "STATEFUL",
    });
    await allIn(db, "RUNNING", 30_000);
    const before = await tasksOf(db);
    const volumes = () =>
      directSql<{ instance_id: number; hostname: string; state: string }>(
        "SELECT instance_id, hostname, state::text FROM volumes WHERE job_id = $1 ORDER BY instance_id",
        [db],
      );
    const volumesBefore = await volumes();
    expect(volumesBefore.map((v) => v.state)).toEqual(["CREATED", "CREATED"]);

    const id = await startUpdate(
      gateway,
      db,
      {
        // Version 2 fails at once unless it finds what version 1 wrote on the volume.
        ...serviceConfig(2, "test -f data/written-by-v1 || exit 3; exec sleep 601", {
          volume: { containerPath: "data", sizeMB: 64 },
        }),
        name: "db",
        type: "STATEFUL",
      },
      { batchSize: 1, maxInstanceAttempts: 1, maxFailureInstances: 1 },
    );
    await succeeded(id);
    const after = await tasksOf(db);
    expect(after.map((t) => [t.hostname, t.state, t.run_id])).toEqual(
      before.map((t) => [t.hostname, "RUNNING", t.run_id + 1]),
    );
    expect((await instanceVersions(db)).map((r) => r.config_version)).toEqual([2, 2]);
    // The same volumes, on the same hosts: nothing was created anew.
    expect(await volumes()).toEqual(volumesBefore);
  }, 120_000);

  it("DAEMON: every host's instance moves to the new version, still one per host", async () => {
    const { sim } = await startSystem([agent("dm-1.test"), agent("dm-2.test"), agent("dm-3.test")]);
    const pool = await leafPool(gateway, "infra", ROOMY);
    const daemon = await submit(gateway, pool, {
      ...serviceConfig(0, "sleep 600"),
      name: "node-agent",
      type: "DAEMON",
    });
    await allIn(daemon, "RUNNING", 30_000);
    const id = await startUpdate(
      gateway,
      daemon,
      { ...serviceConfig(0, "sleep 601"), name: "node-agent", type: "DAEMON" },
      { batchSize: 1 },
    );
    await succeeded(id);
    expect(await placements(daemon)).toEqual([
      "dm-1.test:RUNNING:2",
      "dm-2.test:RUNNING:2",
      "dm-3.test:RUNNING:2",
    ]);
    expect((await tasksOf(daemon)).map((t) => t.pinned_host)).toEqual([
      "dm-1.test",
      "dm-2.test",
      "dm-3.test",
    ]);
    expect(runsOnMaster(sim, daemon, "TASK_RUNNING")).toBe(3);
  }, 120_000);

  it("inPlace: each instance's new run is placed on the host it ran on", async () => {
    await startSystem([agent("ip-1.test"), agent("ip-2.test"), agent("ip-3.test")]);
    const pool = await leafPool(gateway, "web", ROOMY);
    const web = await submit(gateway, pool, serviceConfig(6, "sleep 600"));
    await allIn(web, "RUNNING", 30_000);
    const hostsBefore = (await tasksOf(web)).map((t) => t.hostname);
    expect(new Set(hostsBefore).size).toBeGreaterThan(1);
    const id = await startUpdate(gateway, web, serviceConfig(6, "sleep 601"), {
      batchSize: 2,
      inPlace: true,
    });
    await succeeded(id);
    expect(await placements(web)).toEqual(hostsBefore.map((h) => `${h}:RUNNING:2`));
  }, 120_000);

  it("a rolling STOP stops every instance in batches; a rolling START runs them again", async () => {
    const { sim } = await startSystem([agent("rs-1.test"), agent("rs-2.test")]);
    const pool = await leafPool(gateway, "web", ROOMY);
    const web = await submit(gateway, pool, serviceConfig(4, "sleep 600"));
    await allIn(web, "RUNNING", 30_000);

    const stop = await createUpdate(gateway, {
      jobId: web,
      kind: "STOP",
      options: { ...UPDATE_DEFAULTS, batchSize: 2 },
      acting: TESTER,
    });
    expect(stop.ok).toBe(true);
    if (!stop.ok) return;
    await succeeded(stop.update.id);
    await allIn(web, "KILLED");
    expect(runsOnMaster(sim, web, "TASK_RUNNING")).toBe(0);
    const stopped = await updateOf(gateway, stop.update.id);
    expect(stopped.instancesDone).toEqual([0, 1, 2, 3]);

    const start = await createUpdate(gateway, {
      jobId: web,
      kind: "START",
      options: { ...UPDATE_DEFAULTS, batchSize: 2 },
      acting: TESTER,
    });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    await succeeded(start.update.id);
    await allIn(web, "RUNNING", 30_000);
    expect(runsOnMaster(sim, web, "TASK_RUNNING")).toBe(4);
    // Neither moved the config: both are of version 1.
    expect((await instanceVersions(web)).map((r) => r.config_version)).toEqual([1, 1, 1, 1]);
  }, 120_000);
});
