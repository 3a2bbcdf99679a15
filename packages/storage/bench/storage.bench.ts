/**
 * storage.insert_tasks_100k: tasks/s written through the repositories in
 * batches, beside COPY rows/s into the same table in the same run (the
 * machine's limit), so the ratio holds on a noisy machine.
 */

import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { type Benchmark, log, median, rssMb } from "../../../bench/harness.ts";
import { type NewTask, openGateway } from "../src/index.ts";
import { benchPool } from "./bench-pool.ts";

const N = 100_000;
const BATCH = 5_000;
const ROUNDS = 3;

function tasksFor(jobId: string): NewTask[] {
  return Array.from({ length: N }, (_, i) => ({
    jobId,
    instanceId: i,
    state: "PENDING",
    goalState: "SUCCEEDED",
    priority: i % 10,
    preemptible: true,
    cpu: 0.5,
    memMb: 256,
    diskMb: 128,
    gpu: 0,
  }));
}

async function copyRows(url: string, jobId: string, tasks: NewTask[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sink = client.query(
      copyFrom(
        "COPY tasks (id, job_id, instance_id, state, goal_state, priority, preemptible, cpu, mem_mb, disk_mb, gpu, updated_at) FROM STDIN",
      ),
    );
    const now = new Date().toISOString();
    async function* lines() {
      let chunk = "";
      for (const t of tasks) {
        chunk += `${crypto.randomUUID()}\t${jobId}\t${t.instanceId}\t${t.state}\t${t.goalState}\t${t.priority}\t${t.preemptible}\t${t.cpu}\t${t.memMb}\t${t.diskMb}\t${t.gpu}\t${now}\n`;
        if (chunk.length > 1 << 16) {
          yield chunk;
          chunk = "";
        }
      }
      if (chunk) yield chunk;
    }
    await pipeline(Readable.from(lines()), sink);
  } finally {
    await client.end();
  }
}

const benchmarks: Benchmark[] = [
  {
    name: "storage.insert_tasks_100k",
    async run() {
      const db = await createScratchDatabase("peloton_bench");
      const gateway = openGateway(db.url, { max: 2 });
      try {
        const pool = await benchPool(gateway, "bench");
        const newJob = async () =>
          (
            await gateway.jobs.create({
              name: "bench",
              type: "BATCH",
              poolId: pool.id,
              owner: "bench",
              configYaml: "",
              config: {},
              instanceCount: N,
            })
          ).id;

        const repoRates: number[] = [];
        const copyRates: number[] = [];
        for (let round = -1; round < ROUNDS; round++) {
          // Round -1 warms up both paths; each round uses fresh jobs so indexes grow alike.
          const repoJob = await newJob();
          const repoTasks = tasksFor(repoJob);
          let t0 = performance.now();
          for (let i = 0; i < N; i += BATCH)
            await gateway.tasks.insertMany(repoTasks.slice(i, i + BATCH));
          const repoMs = performance.now() - t0;

          const copyJob = await newJob();
          const copyTasks = tasksFor(copyJob);
          t0 = performance.now();
          await copyRows(db.url, copyJob, copyTasks);
          const copyMs = performance.now() - t0;
          log(`round ${round}: repositories ${repoMs.toFixed(0)} ms, COPY ${copyMs.toFixed(0)} ms`);
          if (round >= 0) {
            repoRates.push((N / repoMs) * 1000);
            copyRates.push((N / copyMs) * 1000);
          }
        }
        const value = Math.round(median(repoRates));
        const copy = Math.round(median(copyRates));
        return {
          bench: "storage.insert_tasks_100k",
          unit: "tasks/s",
          value,
          n: N,
          p50_ms: null,
          p95_ms: null,
          rss_mb: rssMb(),
          batch: BATCH,
          pg_rows_per_s: value,
          pg_copy_rows_per_s: copy,
          ratio_to_copy: Number((value / copy).toFixed(2)),
        };
      } finally {
        await gateway.close();
        await db.dispose();
      }
    },
  },
];

export default benchmarks;
