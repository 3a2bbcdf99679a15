/**
 * Cluster facts for API tests, recorded the way the host manager and the job
 * manager record them: hosts (the capacity) and tasks of a job (demand and
 * allocation of its pool).
 */
import type { NewTask, StorageGateway } from "@peloton/storage";

export async function givenHost(
  gateway: StorageGateway,
  hostname: string,
  r: { cpu: number; memMb?: number; diskMb?: number; gpu?: number },
): Promise<void> {
  await gateway.hosts.upsert({
    hostname,
    agentId: `agent-${hostname}`,
    attributes: {},
    cpu: r.cpu,
    memMb: r.memMb ?? 0,
    diskMb: r.diskMb ?? 0,
    gpu: r.gpu ?? 0,
    ports: [[31000, 32000]],
    state: "UP",
  });
}

/** A job in the pool with one task per entry, each asking for `cpu` cores in the given state. */
export async function givenTasks(
  gateway: StorageGateway,
  poolPath: string,
  tasks: { cpu: number; state: NewTask["state"] }[],
): Promise<void> {
  const pool = await gateway.pools.getByPath(poolPath);
  if (!pool) throw new Error(`no pool ${poolPath}`);
  const job = await gateway.jobs.create({
    name: `job-in-${pool.name}`,
    type: "BATCH",
    poolId: pool.id,
    owner: "test",
    configYaml: "",
    config: {},
    instanceCount: tasks.length,
    state: "RUNNING",
  });
  await gateway.tasks.insertMany(
    tasks.map((t, instanceId) => ({
      jobId: job.id,
      instanceId,
      state: t.state,
      goalState: "SUCCEEDED",
      priority: 0,
      preemptible: true,
      cpu: t.cpu,
      memMb: 0,
      diskMb: 0,
      gpu: 0,
    })),
  );
}
