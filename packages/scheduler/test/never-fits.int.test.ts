/**
 * A gang that can never be placed does not block its pool (issue 14):
 *
 *   at submit   a job whose task is larger than every host, or whose gang is
 *               above its pool's limit, is refused with the numbers and
 *               nothing is stored;
 *   later       a job that fit when submitted and no longer does (its host
 *               went DOWN) is marked CAN_NEVER_FIT by admission, and a later
 *               job of the same pool is admitted past it; when the host comes
 *               back, the first job is admitted too.
 *
 * The first cases write hosts to storage directly (the host manager's rows)
 * and run the real admission loop alone; the last runs the whole scheduler on
 * mesos-sim, where the big host's agent leaves under a running service.
 */

import { jobConfigSchema } from "@peloton/engine";
import type { HostUpsert } from "@peloton/storage";
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
import { actOnJob } from "../src/jobmgr/actions.ts";
import { createJob } from "../src/jobmgr/create-job.ts";
import { createRespoolService } from "../src/resmgr/respool/service.ts";
import { startAdmission, takeAdmitted } from "./support/admission.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const host = (hostname: string, cpu: number, state: HostUpsert["state"] = "UP"): HostUpsert => ({
  hostname,
  agentId: `agent-${hostname}`,
  attributes: {},
  cpu,
  memMb: 8192,
  diskMb: 100_000,
  gpu: 0,
  ports: [[31000, 31009]],
  state,
});

const job = (name: string, cpu: number, instances = 1, more: object = {}) => ({
  name,
  instanceCount: instances,
  defaultConfig: { resource: { cpuLimit: cpu, memLimitMb: 64 }, command: { value: "true" } },
  ...more,
});

async function reasonsOf(jobId: string): Promise<string[]> {
  return (await tasksOf(jobId)).map((t) => `${t.state} ${t.reason}`);
}

describe("gangs that can never fit", () => {
  it("refuses at submit a task larger than every host, with the numbers, storing nothing", async () => {
    await gateway.hosts.upsert(host("big.test", 8));
    await gateway.hosts.upsert(host("small.test", 2));
    await gateway.hosts.upsert(host("gone.test", 64, "DOWN"));
    const pool = await leafPool(gateway, "batch", ROOMY);
    const result = await createJob(gateway, {
      config: jobConfigSchema.parse(job("huge", 16)),
      configYaml: "",
      poolPath: pool,
      acting: { login: "test", via: "test" },
    });
    // The DOWN host does not count: it may never come back.
    expect(result).toEqual({
      ok: false,
      failure: {
        kind: "never_fits",
        path: "/batch",
        instances: [0],
        cause: {
          code: "TASK_EXCEEDS_EVERY_HOST",
          task: { resources: { cpu: 16, gpu: 0, memory: 64, disk: 0 }, ports: 0 },
          kind: "cpu",
          need: 16,
          largest: 8,
          hosts: 2,
        },
      },
    });
    expect(await directSql("SELECT id FROM jobs")).toEqual([]);
  });

  it("refuses at submit a gang above its pool's limit, and a scale after the limit was lowered", async () => {
    await gateway.hosts.upsert(host("big.test", 64));
    const modest = {
      cpu: { reservation: 10, limit: 10, share: 1 },
      memory: { reservation: 4096, limit: 4096, share: 1 },
      disk: { reservation: 50_000, limit: 50_000, share: 1 },
    };
    const pool = await leafPool(gateway, "capped", modest);
    // 4 × 3 = 12 cpu must start together; the pool may never have more than 10.
    const gang = job("gang", 3, 4, { sla: { minimumRunningInstances: 4 } });
    await expect(submit(gateway, pool, gang)).rejects.toThrow(
      /"GANG_EXCEEDS_POOL_LIMIT","kind":"cpu","gang":12,"gangTasks":4,"limit":10/,
    );
    const id = await submit(gateway, pool, job("four", 4, 1));
    // The pool's limit is lowered below one instance (allowed: a leaf).
    const service = createRespoolService(gateway);
    const stored = await gateway.pools.getByPath(pool);
    const lowered = await service.update({
      path: pool,
      version: stored!.version,
      acting: { login: "test", via: "test" },
      config: {
        name: "capped",
        resources: [
          { kind: "cpu", reservation: 3, limit: 3, share: 1 },
          { kind: "memory", reservation: 4096, limit: 4096, share: 1 },
          { kind: "disk", reservation: 50_000, limit: 50_000, share: 1 },
        ],
      },
    });
    expect(lowered.ok).toBe(true);
    const scaled = await actOnJob(
      gateway,
      id,
      { kind: "scale", instanceCount: 2 },
      { login: "test", via: "test" },
    );
    expect(scaled).toMatchObject({
      ok: false,
      failure: {
        kind: "never_fits",
        path: "/capped",
        instances: [1],
        cause: { code: "GANG_EXCEEDS_POOL_LIMIT", kind: "cpu", gang: 4, limit: 3 },
      },
    });
  });

  it("sets aside a gang that became impossible, admits the job behind it, and admits it when the host returns", async () => {
    await gateway.hosts.upsert(host("big.test", 8));
    await gateway.hosts.upsert(host("small.test", 2));
    const pool = await leafPool(gateway, "batch", ROOMY);
    // Fits only on big.test; submitted while it is there.
    const first = await submit(gateway, pool, job("needs-big", 6));
    // big.test leaves before admission ever sees the job.
    await gateway.hosts.upsert(host("big.test", 8, "DOWN"));
    const second = await submit(gateway, pool, job("small", 1));
    const { loop, admitted } = startAdmission(gateway);

    // Admitted: READY in the leader's memory; its row, which never waited in line, says nothing.
    await expect.poll(() => takeAdmitted(admitted), { timeout: 10_000 }).toEqual([second]);
    expect(await reasonsOf(second)).toEqual(["PENDING null"]);
    await expect
      .poll(() => reasonsOf(first), { timeout: 10_000 })
      .toEqual(["PENDING CAN_NEVER_FIT"]);
    const [task] = await tasksOf(first);
    expect(task!.message).toBe(
      "can never fit in pool /batch: a task needs 6 cpu cores, and the largest host (of 1) has 2 cpu cores; set aside so the gangs behind it go ahead, until the hosts or the pool change",
    );

    // The cluster grows again: the same gang is admissible.
    await gateway.hosts.upsert(host("big.test", 8));
    loop.kick();
    await expect.poll(() => takeAdmitted(admitted), { timeout: 10_000 }).toEqual([first]);
    // It had said why it waited: now it says it is admitted.
    await expect.poll(() => reasonsOf(first)).toEqual(["PENDING ADMITTED"]);
    const [admittedTask] = await tasksOf(first);
    expect(admittedTask!.message).toBe(
      "admitted in pool /batch (its non-preemptible queue); waiting for a host",
    );
  });
});

describe("gangs that can never fit, on mesos-sim", () => {
  it("a service whose only big host leaves waits aside as CAN_NEVER_FIT; a later job runs; the host returns and it runs again", async () => {
    const { sim } = await startSystem([
      agent("big.test", { resources: { cpus: 8, mem: 8192 } }),
      agent("small.test", { resources: { cpus: 2, mem: 8192 } }),
    ]);
    const pool = await leafPool(gateway, "svc", ROOMY);
    const big = await submit(gateway, pool, {
      ...job("needs-big", 6),
      type: "SERVICE",
      defaultConfig: { resource: { cpuLimit: 6, memLimitMb: 64 }, command: { value: "sleep 600" } },
    });
    await allIn(big, "RUNNING", 30_000);
    await sim.removeAgent(sim.agents().find((a) => a.hostname === "big.test")!.id);
    // Its run is lost; the new run can never fit on what is left, and says why.
    await expect
      .poll(async () => (await tasksOf(big)).map((t) => `${t.state} ${t.reason}`), {
        timeout: 30_000,
      })
      .toEqual(["PENDING CAN_NEVER_FIT"]);
    expect((await tasksOf(big))[0]!.message).toMatch(
      /^can never fit in pool \/svc: a task needs 6 cpu cores, and the largest host \(of 1\) has 2 cpu cores/,
    );
    // A later job of the same pool is not held up behind it.
    const later = await submit(gateway, pool, {
      ...job("later", 1),
      type: "SERVICE",
      defaultConfig: { resource: { cpuLimit: 1, memLimitMb: 64 }, command: { value: "sleep 600" } },
    });
    await allIn(later, "RUNNING", 30_000);
    // The cluster grows again: the service runs again.
    await sim.addAgent({ hostname: "big-2.test", resources: { cpus: 8, mem: 8192 } });
    await allIn(big, "RUNNING", 30_000);
  });
});
