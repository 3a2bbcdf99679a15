/**
 * A batch job of many task rows for the benchmarks that read big jobs
 * (api.tasks_page_1m, grpc.*): written with the job manager's bulk insert,
 * its instances spread over a lifecycle in progress.
 */
import { jobConfigSchema, type TaskState } from "@peloton/engine";
import type { NewTask, StorageGateway } from "@peloton/storage";

/** Rows per insert: big enough to be fast, small enough for PostgreSQL's parameter limit. */
const CHUNK = 20_000;

/** Instance `i`'s state: most RUNNING, some done, some waiting. */
export function lifecycleStateOf(i: number): TaskState {
  const r = i % 100;
  return r < 80 ? "RUNNING" : r < 95 ? "SUCCEEDED" : r < 98 ? "PENDING" : "FAILED";
}

/** A RUNNING job `name` of `instances` tasks (0.1 core, 32 MiB each) in `poolId`; its id. */
export async function insertBigJob(
  gateway: StorageGateway,
  { poolId, name, instances }: { poolId: string; name: string; instances: number },
): Promise<string> {
  const config = jobConfigSchema.parse({
    name,
    instanceCount: instances,
    labels: [{ key: "team", value: "bench" }],
    defaultConfig: {
      resource: { cpuLimit: 0.1, memLimitMb: 32 },
      command: { value: "sleep 60" },
    },
  });
  const job = await gateway.jobs.create({
    name,
    type: "BATCH",
    poolId,
    owner: "bench",
    configYaml: `name: ${name}\n`,
    config,
    instanceCount: instances,
    state: "RUNNING",
  });
  for (let from = 0; from < instances; from += CHUNK) {
    const chunk: NewTask[] = [];
    for (let i = from; i < Math.min(instances, from + CHUNK); i++)
      chunk.push({
        jobId: job.id,
        instanceId: i,
        state: lifecycleStateOf(i),
        goalState: "SUCCEEDED",
        priority: 0,
        preemptible: true,
        cpu: 0.1,
        memMb: 32,
        diskMb: 0,
        gpu: 0,
      });
    await gateway.tasks.insertMany(chunk);
  }
  return job.id;
}
