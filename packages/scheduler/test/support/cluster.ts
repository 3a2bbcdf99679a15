/** An in-process mesos-sim, the host manager on it, and a job with tasks to launch: for integration tests. */

import { jobConfigSchema } from "@peloton/engine";
import type { MesosSim } from "@peloton/mesos";
import type { StorageGateway } from "@peloton/storage";
import { log, onCleanup, TWO_AGENTS, testSim } from "@peloton/test-support/scheduler/sim.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import type { StatusHandler } from "../../src/hostmgr/host-adapter.ts";
import { MesosHostManager } from "../../src/hostmgr/mesos/mesos-host-manager.ts";
import { unfinishedTasksOf } from "../../src/hostmgr/unfinished-tasks.ts";
import { ensureRootPool } from "../../src/index.ts";
import { StatusUpdates } from "../../src/jobmgr/status-updates.ts";
import { JobConfigs } from "../../src/taskwriter/job-configs.ts";
import { TaskWriter } from "../../src/taskwriter/task-writer.ts";

// The sim, cleanups and logger are shared with other packages' tests; this file adds the scheduler's parts.
export { log, onCleanup, TWO_AGENTS, testSim };

export async function hostManager(
  gateway: StorageGateway,
  sim: MesosSim,
  onStatus: StatusHandler = jobStatusHandler(gateway),
): Promise<MesosHostManager> {
  const hm = new MesosHostManager({
    gateway,
    master: sim.url,
    log,
    onStatus,
    unfinishedTasks: unfinishedTasksOf(gateway),
    hostRefreshMs: 200,
    client: { backoff: { initialMs: 20, maxMs: 200 }, requestTimeoutMs: 5000 },
  });
  onCleanup(() => hm.stop());
  hm.start();
  await hm.ready();
  return hm;
}

/** The job manager's status handler alone (no loops): updates decided and written in batches. */
export function jobStatusHandler(gateway: StorageGateway): StatusHandler {
  return new StatusUpdates({
    gateway,
    writer: new TaskWriter(gateway, log),
    configs: new JobConfigs(gateway),
    log,
    kill: () => undefined,
  }).handle;
}

/** A batch job of `instances` tasks (1 cpu, 64 MB) in a fresh pool; returns the task ids by instance. */
export async function batchJob(
  gateway: StorageGateway,
  instances: number,
): Promise<{ jobId: string; taskIds: string[] }> {
  await ensureRootPool(gateway);
  const root = (await gateway.pools.getByPath("/"))!;
  const pool =
    (await gateway.pools.getByPath("/batch")) ??
    (await gateway.pools.create(
      { path: "/batch", name: "batch", parentId: root.id, resources: {} },
      "test",
    ));
  const job = await gateway.jobs.create({
    name: "hello",
    type: "BATCH",
    poolId: pool.id,
    owner: "test",
    configYaml: "name: hello\n",
    config: jobConfigSchema.parse({
      name: "hello",
      instanceCount: instances,
      defaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 32 }, command: { value: "true" } },
    }),
    instanceCount: instances,
    state: "PENDING",
  });
  await gateway.tasks.insertMany(
    Array.from({ length: instances }, (_, instanceId) => ({
      jobId: job.id,
      instanceId,
      state: "PLACED" as const,
      goalState: "SUCCEEDED" as const,
      priority: 0,
      preemptible: true,
      cpu: 0.1,
      memMb: 32,
      diskMb: 0,
      gpu: 0,
    })),
  );
  const rows = await directSql<{ id: string }>(
    "SELECT id::text FROM tasks WHERE job_id = $1 ORDER BY instance_id",
    [job.id],
  );
  return { jobId: job.id, taskIds: rows.map((r) => r.id) };
}
