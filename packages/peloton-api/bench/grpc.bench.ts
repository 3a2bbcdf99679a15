/**
 * `npm run bench -- grpc.`: Peloton's API over gRPC (a client generated from
 * our protos, h2c on a free port) on a database of 1,000,000 task rows — a
 * job of 999,000 instances and one of 1,000, inserted with the job
 * manager's bulk path.
 *
 * - grpc.get_job: `JobManager.Get` of the 1,000-instance job (its JobInfo
 *   with runtime and task counts); the 999,000-instance job's figure beside
 *   it (goal p95 < 5 ms).
 * - grpc.list_tasks_1000: `TaskManager.List` of all 1,000 instances, each a
 *   TaskInfo with its config and runtime (goal p95 < 20 ms).
 *
 * Each call is the whole path a Peloton client pays: the token's actor,
 * the router's validation and reads, the mapping to Peloton's messages and
 * protobuf on the wire, and the client's decoding. The client is a
 * generated one on a thread of its own (grpc-client.worker.ts), so its
 * decoding and garbage do not share the server's event loop, as a client
 * process's would not; `cpu_ms_per_call` is both threads' CPU.
 *
 * The calls are timed once the server is warm (warmUp): a server that has
 * run a while answers from code V8 has optimised, and until then the same
 * call costs up to twice the CPU (JobManager.Get's falls from ~2.7 to
 * ~1.3 ms over its first ~4,000 calls). The cold figures are logged.
 */
import { Worker } from "node:worker_threads";
import { ensureRootPool, schedulerServices } from "@peloton/scheduler";
import { ChangeListener, openGateway } from "@peloton/storage";
import { insertBigJob } from "@peloton/test-support/storage/big-job.ts";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import pg from "pg";
import {
  type Benchmark,
  type BenchResult,
  log,
  median,
  percentile,
  round3,
  rssMb,
} from "../../../bench/harness.ts";
import { startGrpcServer } from "../src/grpc/server.ts";
import type { ClientJob, ClientSetup, ClientTimings } from "./grpc-client.worker.ts";

// PELOTON_BENCH_GRPC_BIG: a smaller big job, to profile the path without waiting for 1M rows.
const BIG = Number(process.env.PELOTON_BENCH_GRPC_BIG ?? 999_000);
const SMALL = 1_000;
// Enough calls that each p95 rests on a dozen or more of them, not on a handful.
const CALLS = 1_000;
/** Warm-up stops after this many blocks of calls, steady or not. */
const MAX_WARM_BLOCKS = 16;
const TOKEN = `pt_${"b".repeat(43)}`;

const ACTOR = {
  userId: "00000000-0000-4000-8000-000000000000",
  login: "bench",
  displayName: "bench",
  role: "ADMIN" as const,
  teams: [],
  hostMaintenance: true,
  via: { kind: "token" as const, tokenId: "bench", tokenName: "bench" },
};

interface Stage {
  /** Times `job` on the client thread; `cpuMs` is the process's CPU per call meanwhile. */
  time: (job: ClientJob) => Promise<ClientTimings & { cpuMs: number }>;
  small: string;
  big: string;
}

/** The client thread, connected to the server on `port`, once it has loaded. */
async function clientThread(
  port: number,
): Promise<{ time: Stage["time"]; stop: () => Promise<number> }> {
  const setup: ClientSetup = { port, token: TOKEN };
  // A worker does not inherit tsx's loader: a small script registers it, then loads the client.
  const entry = new URL("./grpc-client.worker.ts", import.meta.url).href;
  const worker = new Worker(
    `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: setup, execArgv: [] },
  );
  await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    time: (job) =>
      new Promise((resolve, reject) => {
        const cpu0 = process.cpuUsage();
        worker.once("error", reject);
        worker.once("message", (timings: ClientTimings) => {
          worker.off("error", reject);
          const cpu = process.cpuUsage(cpu0);
          resolve({ ...timings, cpuMs: (cpu.user + cpu.system) / 1000 / (job.calls + job.warmUp) });
        });
        worker.postMessage(job);
      }),
    stop: () => worker.terminate(),
  };
}

/**
 * Calls `job` in blocks of `block` until the CPU per call stops falling (a
 * block no cheaper than the cheapest before it by 5 %, after three at
 * least), and logs the way it fell.
 */
async function warmUp(
  time: Stage["time"],
  job: Pick<ClientJob, "call" | "jobId">,
  block: number,
): Promise<void> {
  const curve: number[] = [];
  for (let i = 0; i < MAX_WARM_BLOCKS; i++) {
    const { cpuMs } = await time({ ...job, calls: block, warmUp: 1 });
    const cheapest = Math.min(...curve);
    curve.push(cpuMs);
    if (curve.length > 3 && cpuMs > cheapest * 0.95) break;
  }
  log(
    `${job.call}: warmed up over ${curve.length} × ${block} calls, CPU per call ` +
      `${curve.map((ms) => ms.toFixed(2)).join(" → ")} ms`,
  );
}

/**
 * The bulk load left as a long-lived database is: vacuumed (its visibility
 * map set, so index-only scans stay index-only), analyzed, and checkpointed.
 * Without it autovacuum wakes on the million fresh rows, and the checkpointer
 * writes their pages out, in the middle of the timed calls, sharing the two
 * cores with them.
 */
async function settle(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const t0 = performance.now();
    await client.query("VACUUM (ANALYZE) tasks, jobs");
    await client.query("CHECKPOINT");
    log(`vacuumed, analyzed and checkpointed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await client.end();
  }
}

/** The database, the gRPC server and a client, for `fn`; all of it taken down after. */
async function withGrpc<T>(fn: (stage: Stage) => Promise<T>): Promise<T> {
  const db = await createScratchDatabase("peloton_bench_grpc");
  const gateway = openGateway(db.url, { max: 4 });
  const changes = new ChangeListener(db.url);
  // Made once, as the console's process does (packages/api/src/server/gateway.ts).
  const scheduler = schedulerServices(gateway);
  const server = await startGrpcServer({
    port: 0,
    host: "127.0.0.1",
    deps: {
      context: () => ({ gateway, scheduler, changes }),
      resolveActor: async (headers) =>
        headers.get("authorization") === `Bearer ${TOKEN}` ? ACTOR : null,
    },
    onInternalError: (error) => log(`internal error: ${String(error)}`),
  });
  try {
    await ensureRootPool(gateway);
    const root = (await gateway.pools.getByPath("/"))!;
    const pool = await gateway.pools.create(
      { path: "/bench", name: "bench", parentId: root.id, resources: {} },
      "bench",
    );
    const t0 = performance.now();
    const big = await insertBigJob(gateway, { poolId: pool.id, name: "big", instances: BIG });
    const small = await insertBigJob(gateway, { poolId: pool.id, name: "small", instances: SMALL });
    log(`inserted ${BIG + SMALL} tasks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await settle(db.url);
    const client = await clientThread(server.port);
    try {
      return await fn({ time: client.time, small, big });
    } finally {
      await client.stop();
    }
  } finally {
    await server.close();
    await changes.stop();
    await gateway.close();
    await db.dispose();
  }
}

function result(
  name: string,
  { times, cpuMs }: { times: number[]; cpuMs: number },
  goal: number,
  extra: object,
): BenchResult {
  const p50 = median(times);
  const p95 = percentile(times, 95);
  log(
    `${name}: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (goal p95 < ${goal} ms), ` +
      `CPU ${cpuMs.toFixed(2)} ms per call`,
  );
  return {
    bench: name,
    unit: "ms",
    value: round3(p50),
    n: times.length,
    p50_ms: round3(p50),
    p95_ms: round3(p95),
    rss_mb: rssMb(),
    goal_p95_ms: goal,
    rows: BIG + SMALL,
    cpu_ms_per_call: round3(cpuMs),
    ...extra,
  };
}

const benchmarks: Benchmark[] = [
  {
    name: "grpc.get_job",
    run: () =>
      withGrpc(async ({ time, small, big }) => {
        await warmUp(time, { call: "get_job", jobId: small }, 500);
        const measured = await time({ call: "get_job", jobId: small, calls: CALLS, warmUp: 1 });
        if (measured.answered !== SMALL) throw new Error("JobManager.Get: wrong job");
        const bigJob = await time({ call: "get_job", jobId: big, calls: CALLS / 3, warmUp: 5 });
        return result("grpc.get_job", measured, 5, {
          instances: SMALL,
          big_job_instances: BIG,
          big_job_p95_ms: round3(percentile(bigJob.times, 95)),
        });
      }),
  },
  {
    name: "grpc.list_tasks_1000",
    run: () =>
      withGrpc(async ({ time, small }) => {
        await warmUp(time, { call: "list_tasks", jobId: small }, 100);
        const measured = await time({
          call: "list_tasks",
          jobId: small,
          calls: CALLS / 3,
          warmUp: 1,
        });
        if (measured.answered !== SMALL)
          throw new Error(`TaskManager.List: ${measured.answered} tasks, not ${SMALL}`);
        return result("grpc.list_tasks_1000", measured, 20, { tasks: SMALL });
      }),
  },
];

export default benchmarks;
