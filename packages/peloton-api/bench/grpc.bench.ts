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
 * protobuf on the wire.
 */
import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { type JobConfig, jobConfigSchema, type TaskState } from "@peloton/engine";
import { ensureRootPool, schedulerServices } from "@peloton/scheduler";
import { ChangeListener, type NewTask, openGateway, type StorageGateway } from "@peloton/storage";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import {
  type Benchmark,
  type BenchResult,
  log,
  median,
  percentile,
  round3,
  rssMb,
} from "../../../bench/harness.ts";
import { JobManager } from "../src/generated/peloton/api/v0/job/job_pb.ts";
import { TaskManager } from "../src/generated/peloton/api/v0/task/task_pb.ts";
import { startGrpcServer } from "../src/grpc/server.ts";

// PELOTON_BENCH_GRPC_BIG: a smaller big job, to profile the path without waiting for 1M rows.
const BIG = Number(process.env.PELOTON_BENCH_GRPC_BIG ?? 999_000);
const SMALL = 1_000;
const CHUNK = 20_000;
const CALLS = 300;
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

function configOf(name: string, instances: number): JobConfig {
  return jobConfigSchema.parse({
    name,
    instanceCount: instances,
    labels: [{ key: "team", value: "bench" }],
    defaultConfig: {
      resource: { cpuLimit: 0.1, memLimitMb: 32 },
      command: { value: "sleep 60" },
    },
  });
}

/** A big job's lifecycle in progress: most RUNNING, some done, some waiting. */
function stateOf(i: number): TaskState {
  const r = i % 100;
  return r < 80 ? "RUNNING" : r < 95 ? "SUCCEEDED" : r < 98 ? "PENDING" : "FAILED";
}

async function jobWithTasks(
  gateway: StorageGateway,
  poolId: string,
  name: string,
  instances: number,
): Promise<string> {
  const job = await gateway.jobs.create({
    name,
    type: "BATCH",
    poolId,
    owner: "bench",
    configYaml: `name: ${name}\n`,
    config: configOf(name, instances),
    instanceCount: instances,
    state: "RUNNING",
  });
  for (let from = 0; from < instances; from += CHUNK) {
    const chunk: NewTask[] = [];
    for (let i = from; i < Math.min(instances, from + CHUNK); i++)
      chunk.push({
        jobId: job.id,
        instanceId: i,
        state: stateOf(i),
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

/**
 * Milliseconds of each of `n` calls, after a warm-up of 20, and the
 * process's CPU per call (client and server: both are in this process) —
 * the figure a busy machine does not inflate as it does the wall times.
 */
async function timings(
  n: number,
  call: () => Promise<unknown>,
): Promise<{ times: number[]; cpuMs: number }> {
  for (let i = 0; i < 20; i++) await call();
  const out: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    out.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  return { times: out.sort((a, b) => a - b), cpuMs: (cpu.user + cpu.system) / 1000 / n };
}

interface Stage {
  jobs: Client<typeof JobManager>;
  tasks: Client<typeof TaskManager>;
  small: string;
  big: string;
}

/** The database, the gRPC server and a client, for `fn`; all of it taken down after. */
async function withGrpc<T>(fn: (stage: Stage) => Promise<T>): Promise<T> {
  const db = await createScratchDatabase("peloton_bench_grpc");
  const gateway = openGateway(db.url, { max: 4 });
  const changes = new ChangeListener(db.url);
  const server = await startGrpcServer({
    port: 0,
    host: "127.0.0.1",
    deps: {
      context: () => ({ gateway, scheduler: schedulerServices(gateway), changes }),
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
    const big = await jobWithTasks(gateway, pool.id, "big", BIG);
    const small = await jobWithTasks(gateway, pool.id, "small", SMALL);
    log(`inserted ${BIG + SMALL} tasks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const transport = createGrpcTransport({
      baseUrl: `http://127.0.0.1:${server.port}`,
      interceptors: [
        (next) => (req) => {
          req.header.set("authorization", `Bearer ${TOKEN}`);
          return next(req);
        },
      ],
    });
    return await fn({
      jobs: createClient(JobManager, transport),
      tasks: createClient(TaskManager, transport),
      small,
      big,
    });
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
      withGrpc(async ({ jobs, small, big }) => {
        const got = await jobs.get({ id: { value: small } });
        if (got.jobInfo?.config?.instanceCount !== SMALL)
          throw new Error("JobManager.Get: wrong job");
        const measured = await timings(CALLS, () => jobs.get({ id: { value: small } }));
        const bigJob = await timings(CALLS / 3, () => jobs.get({ id: { value: big } }));
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
      withGrpc(async ({ tasks, small }) => {
        const listed = await tasks.list({ jobId: { value: small } });
        const count = Object.keys(listed.result?.value ?? {}).length;
        if (count !== SMALL) throw new Error(`TaskManager.List: ${count} tasks, not ${SMALL}`);
        const measured = await timings(CALLS / 3, () => tasks.list({ jobId: { value: small } }));
        return result("grpc.list_tasks_1000", measured, 20, { tasks: SMALL });
      }),
  },
];

export default benchmarks;
