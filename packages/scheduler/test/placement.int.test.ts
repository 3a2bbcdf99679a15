/**
 * Placement rules end to end on mesos-sim (real runtime, PostgreSQL): GPU
 * hosts, host attribute and task label constraints, gangs all-or-nothing,
 * daemon jobs following the hosts, stateful volumes sticking to their host.
 */
import { SIM_DURATION_KEY } from "@peloton/mesos";
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
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { actOnJob } from "../src/jobmgr/actions.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

/** Tasks that "run" until killed (simulated by mesos-sim, no processes). */
const LONG = [{ key: SIM_DURATION_KEY, value: "600000" }];

const job = (
  name: string,
  instances: number,
  extra: Record<string, unknown> = {},
  resource = {},
) => ({
  name,
  instanceCount: instances,
  labels: LONG,
  defaultConfig: {
    resource: { cpuLimit: 1, memLimitMb: 64, ...resource },
    command: { value: "sleep 600" },
    ...extra,
  },
});

const hostConstraint = (key: string, value: string) => ({
  type: "LABEL_CONSTRAINT",
  labelConstraint: { kind: "HOST", condition: "EQUAL", requirement: 1, label: { key, value } },
});

const hostsOf = async (jobId: string) => (await tasksOf(jobId)).map((t) => t.hostname);

describe("placement on mesos-sim", () => {
  it("GPU: GPU tasks go to GPU hosts only, and CPU tasks never do", async () => {
    await startSystem([
      agent("cpu-1.test"),
      agent("cpu-2.test"),
      agent("gpu-1.test", { resources: { cpus: 8, mem: 16384, disk: 100_000, gpus: 2 } }),
    ]);
    const pool = await leafPool(gateway, "ml", ROOMY);
    const training = await submit(gateway, pool, job("train", 2, {}, { gpuLimit: 1 }));
    const web = await submit(gateway, pool, job("web", 6));
    await allIn(training, "RUNNING");
    await allIn(web, "RUNNING");
    expect(await hostsOf(training)).toEqual(["gpu-1.test", "gpu-1.test"]);
    expect((await hostsOf(web)).filter((h) => h === "gpu-1.test")).toEqual([]);
    // A third GPU task finds no free GPU: it waits, and says why.
    const more = await submit(gateway, pool, job("train-more", 1, {}, { gpuLimit: 1 }));
    await expect
      .poll(async () => (await tasksOf(more))[0], { timeout: 10_000 })
      .toMatchObject({
        // Admitted (READY in the leader's memory); the row waits PENDING and says why.
        state: "PENDING",
        reason: "NO_HOST_FITS",
        message: "no host fits: 2 hosts have no GPU, 1 host lacks 1 gpu",
      });
  });

  it("constraints: a host attribute, TASK anti-affinity and NOT", async () => {
    await startSystem([
      agent("a-1.test", { attributes: { zone: "a" } }),
      agent("a-2.test", { attributes: { zone: "a" } }),
      agent("b-1.test", { attributes: { zone: "b" } }),
    ]);
    const pool = await leafPool(gateway, "web", ROOMY);
    const inB = await submit(
      gateway,
      pool,
      job("in-b", 2, { constraint: hostConstraint("zone", "b") }),
    );
    const notB = await submit(
      gateway,
      pool,
      job("not-b", 3, {
        constraint: {
          type: "NOT_CONSTRAINT",
          notConstraint: { constraint: hostConstraint("zone", "b") },
        },
      }),
    );
    const spread = await submit(gateway, pool, {
      ...job("one-per-host", 4, {
        labels: [{ key: "app", value: "cache" }],
        constraint: {
          type: "LABEL_CONSTRAINT",
          labelConstraint: {
            kind: "TASK",
            condition: "EQUAL",
            requirement: 0,
            label: { key: "app", value: "cache" },
          },
        },
      }),
    });
    await allIn(inB, "RUNNING");
    await allIn(notB, "RUNNING");
    expect(await hostsOf(inB)).toEqual(["b-1.test", "b-1.test"]);
    expect((await hostsOf(notB)).every((h) => h?.startsWith("a-"))).toBe(true);
    // Three hosts, four instances that avoid each other: three run, one waits and says why.
    await expect
      .poll(async () => (await statesOf(spread)).sort(), { timeout: 15_000 })
      .toEqual(["PENDING", "RUNNING", "RUNNING", "RUNNING"]);
    const tasks = await tasksOf(spread);
    expect(new Set(tasks.filter((t) => t.state === "RUNNING").map((t) => t.hostname)).size).toBe(3);
    const waiting = tasks.find((t) => t.state === "PENDING")!;
    expect(waiting.reason).toBe("NO_HOST_FITS");
    expect(waiting.message).toMatch(/3 hosts .*constraint/);
  });

  it("gang: all members placed together, or none of them", async () => {
    const { sim } = await startSystem([
      agent("g-1.test", { resources: { cpus: 4, mem: 8192 } }),
      agent("g-2.test", { resources: { cpus: 4, mem: 8192 } }),
      agent("g-small.test", { resources: { cpus: 2, mem: 8192 } }),
    ]);
    const pool = await leafPool(gateway, "gangs", ROOMY);
    // Three tasks of 3 cores on two 4-core hosts and a 2-core one: the cluster
    // has 10 cores, but only two tasks fit a host, so none starts. (On 8 cores
    // the job would be refused at submit: the gang could never run.)
    const gang = await submit(gateway, pool, {
      ...job("gang", 3, {}, { cpuLimit: 3 }),
      sla: { minimumRunningInstances: 3 },
    });
    await expect
      .poll(async () => (await tasksOf(gang)).map((t) => t.reason), { timeout: 10_000 })
      .toEqual(["GANG_INCOMPLETE", "GANG_INCOMPLETE", "GANG_INCOMPLETE"]);
    expect(await statesOf(gang)).toEqual(["PENDING", "PENDING", "PENDING"]);
    expect((await tasksOf(gang))[2]!.message).toMatch(/starts only whole and 2 of 3 tasks fit/);
    // A third host: now the whole gang fits, and all of it starts.
    await sim.addAgent({ hostname: "g-3.test", resources: { cpus: 4, mem: 8192 } });
    await allIn(gang, "RUNNING");
    expect(new Set(await hostsOf(gang)).size).toBe(3);
  });

  it("daemon: one instance per host; a host added gets one, a host removed loses its own", async () => {
    const { sim } = await startSystem([agent("d-1.test"), agent("d-2.test")]);
    const pool = await leafPool(gateway, "infra", ROOMY);
    const daemon = await submit(gateway, pool, {
      ...job("node-exporter", 0, {}, { cpuLimit: 0.5 }),
      type: "DAEMON",
    });
    await allIn(daemon, "RUNNING");
    expect((await tasksOf(daemon)).map((t) => [t.pinned_host, t.hostname])).toEqual([
      ["d-1.test", "d-1.test"],
      ["d-2.test", "d-2.test"],
    ]);
    await sim.addAgent({ hostname: "d-3.test", resources: { cpus: 4, mem: 8192 } });
    await expect
      .poll(async () => (await tasksOf(daemon)).map((t) => `${t.hostname}:${t.state}`), {
        timeout: 15_000,
      })
      .toEqual(["d-1.test:RUNNING", "d-2.test:RUNNING", "d-3.test:RUNNING"]);
    await sim.removeAgent(sim.agents().find((a) => a.hostname === "d-1.test")!.id);
    await expect
      .poll(async () => (await tasksOf(daemon)).map((t) => t.state), { timeout: 15_000 })
      .toEqual(["DELETED", "RUNNING", "RUNNING"]);
    const [row] = await directSql<{ instance_count: number }>(
      "SELECT instance_count FROM jobs WHERE id = $1",
      [daemon],
    );
    expect(row!.instance_count).toBe(2);
    expect(await jobState(daemon)).toBe("RUNNING");
  });

  it("stateful: the volume is created with the first run and every later run goes back to its host", async () => {
    await startSystem([agent("s-1.test"), agent("s-2.test")]);
    const pool = await leafPool(gateway, "db", ROOMY);
    const db = await submit(gateway, pool, {
      ...job("db", 1, { volume: { containerPath: "data", sizeMB: 128 } }),
      type: "STATEFUL",
    });
    await allIn(db, "RUNNING");
    const [first] = await tasksOf(db);
    const [volume] = await directSql<{ hostname: string; state: string; size_mb: number }>(
      "SELECT hostname, state::text, size_mb FROM volumes WHERE job_id = $1",
      [db],
    );
    expect(volume).toEqual({ hostname: first!.hostname, state: "CREATED", size_mb: 128 });
    // A restart makes a new run; it goes back to the volume's host, where the volume is mounted again.
    await actOnJob(gateway, db, { kind: "restart" }, { login: "alice", via: "test" });
    await expect
      .poll(async () => (await tasksOf(db))[0], { timeout: 15_000 })
      .toMatchObject({ state: "RUNNING", run_id: 2, hostname: first!.hostname });
    const events = await eventsOf(db, 0);
    expect(events.filter((e) => e.state === "LAUNCHING").map((e) => e.hostname)).toEqual([
      first!.hostname,
      first!.hostname,
    ]);
  });

  it("stateful: a deleted instance's volume is destroyed and its disk unreserved; scaled back up, it gets a fresh one", async () => {
    const { sim } = await startSystem([agent("v-1.test")]);
    const pool = await leafPool(gateway, "db", ROOMY);
    const db = await submit(gateway, pool, {
      ...job("db", 2, { volume: { containerPath: "data", sizeMB: 256 } }),
      type: "STATEFUL",
    });
    await allIn(db, "RUNNING");
    const volumes = () =>
      directSql<{ instance_id: number; state: string }>(
        "SELECT instance_id, state::text FROM volumes WHERE job_id = $1 ORDER BY instance_id",
        [db],
      );
    /** The agent's persistent volumes and its disk reserved for our role, as mesos-sim holds them. */
    const onAgent = () => {
      const total = sim.agents()[0]!.total;
      return {
        volumes: total.flatMap((r) => (r.disk?.persistence ? [r.disk.persistence.id] : [])).sort(),
        reservedDisk: total
          .filter((r) => r.name === "disk" && (r.reservations?.length ?? 0) > 0)
          .reduce((mb, r) => mb + (r.scalar?.value ?? 0), 0),
      };
    };
    expect(await volumes()).toEqual([
      { instance_id: 0, state: "CREATED" },
      { instance_id: 1, state: "CREATED" },
    ]);
    expect(onAgent()).toEqual({ volumes: [`${db}-0`, `${db}-1`], reservedDisk: 512 });

    // Scaled down: instance 1 is killed and deleted, then its volume goes back to the agent.
    await actOnJob(
      gateway,
      db,
      { kind: "scale", instanceCount: 1 },
      { login: "alice", via: "test" },
    );
    await expect.poll(volumes, { timeout: 15_000 }).toEqual([
      { instance_id: 0, state: "CREATED" },
      { instance_id: 1, state: "DELETED" },
    ]);
    await expect.poll(onAgent, { timeout: 5_000 }).toEqual({
      volumes: [`${db}-0`],
      reservedDisk: 256,
    });

    // Scaled back up: instance 1 runs again on a volume created anew.
    await actOnJob(
      gateway,
      db,
      { kind: "scale", instanceCount: 2 },
      { login: "alice", via: "test" },
    );
    await expect.poll(volumes, { timeout: 15_000 }).toEqual([
      { instance_id: 0, state: "CREATED" },
      { instance_id: 1, state: "CREATED" },
    ]);
    await allIn(db, "RUNNING");

    // The job deleted: every volume destroyed, no disk left reserved.
    await actOnJob(gateway, db, { kind: "delete" }, { login: "alice", via: "test" });
    await expect.poll(volumes, { timeout: 15_000 }).toEqual([
      { instance_id: 0, state: "DELETED" },
      { instance_id: 1, state: "DELETED" },
    ]);
    await expect.poll(onAgent, { timeout: 5_000 }).toEqual({ volumes: [], reservedDisk: 0 });
  });
});
