/**
 * update.instances_1000_batch_100: a 1,000-instance service of simulated
 * tasks on mesos-sim (its own process) updated to a new command in batches of
 * 100, through the real runtime (the workflow loop, the job manager,
 * admission, placement, launches, status updates). Reports the workflow's
 * own CPU per batch (goal < 100 ms) and the whole update's wall time from
 * create to SUCCEEDED (goal < 30 s). Each round updates the job once more
 * (version n → n+1); the median round is reported.
 *
 * The CPU is measured apart, with the runtime stopped: one more update of the
 * same job is driven step by step (stepUpdate, what the loop calls), and
 * between steps the moved instances are put RUNNING on their new version in
 * SQL (the tasks' part, not the workflow's). process.cpuUsage around each
 * step is then the workflow's alone (its reads, planner, writes and the
 * driver's work for them); during the live rounds the same figure would
 * include every other loop interleaved on the event loop (reported beside it
 * as live_step_cpu_ms_per_batch, an upper bound).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type JobConfigInput, jobConfigSchema } from "@peloton/engine";
import { openGateway } from "@peloton/storage";
import { spawnSim } from "@peloton/test-support/mesos/sim-process.ts";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import pg from "pg";
import { pino } from "pino";
import { type Benchmark, log, median, rssMb } from "../../../bench/harness.ts";
import { startScheduler } from "../src/assembly/replica.ts";
import { silentLogger } from "../src/common/logger.ts";
import { ensureRootPool } from "../src/demo/seed.ts";
import { mesosHostAdapter } from "../src/hostmgr/mesos/mesos-adapter.ts";
import { createJob } from "../src/jobmgr/create-job.ts";
import { createUpdate } from "../src/jobmgr/updates/create-update.ts";
import type { UpdateStepReport } from "../src/jobmgr/updates/update-loop.ts";
import { stepUpdate } from "../src/jobmgr/updates/update-step.ts";

const NAME = "update.instances_1000_batch_100";
const INSTANCES = 1_000;
const BATCH = 100;
const AGENTS = 50;
const ROUNDS = Number(process.env.PELOTON_BENCH_ROUNDS ?? 3);
const ACTING = { login: "bench", via: "test" };

const config = (version: number): JobConfigInput => ({
  name: "bench-service",
  type: "SERVICE",
  instanceCount: INSTANCES,
  sla: { preemptible: true },
  defaultConfig: {
    resource: { cpuLimit: 0.1, memLimitMb: 32 },
    command: { value: `sleep 3600 # version ${version}` },
  },
});

const benchmarks: Benchmark[] = [
  {
    name: NAME,
    async run() {
      const db = await createScratchDatabase("peloton_bench_update");
      const gateway = openGateway(db.url, { max: 8 });
      const probe = new pg.Client({ connectionString: db.url });
      await probe.connect();
      const dir = mkdtempSync(join(tmpdir(), "peloton-update-"));
      const agentsFile = join(dir, "agents.json");
      writeFileSync(
        agentsFile,
        JSON.stringify({
          agents: [
            {
              hostname: "agent",
              count: AGENTS,
              resources: { cpus: 32, mem: 131_072, disk: 1_000_000 },
              attributes: { zone: "a" },
              simulateTasks: true,
            },
          ],
        }),
      );
      const sim = await spawnSim(["--agents", agentsFile, "--simulate", "--heartbeat", "5"]);
      let steps: UpdateStepReport[] = [];
      const runtime = startScheduler({
        databaseUrl: db.url,
        adapter: mesosHostAdapter({ master: sim.url, hostRefreshMs: 1_000 }),
        log: process.env.PELOTON_BENCH_LOG
          ? pino({ level: process.env.PELOTON_BENCH_LOG }, pino.destination(2))
          : silentLogger(),
        election: { retryMs: 100 },
        scheduling: { updates: { onStep: (r) => steps.push(r) } },
      });
      try {
        await ensureRootPool(gateway);
        const root = (await gateway.pools.getByPath("/"))!;
        const big = { reservation: 1e9, limit: 1e9, share: 1 };
        await gateway.pools.create(
          {
            path: "/bench",
            name: "bench",
            parentId: root.id,
            resources: { cpu: big, memory: big, disk: big, gpu: big },
          },
          "bench",
        );
        await runtime.ready(60_000);
        const created = await createJob(gateway, {
          config: jobConfigSchema.parse(config(1)),
          configYaml: "",
          poolPath: "/bench",
          acting: ACTING,
        });
        if (!created.ok) throw new Error(`job refused: ${JSON.stringify(created.failure)}`);
        const jobId = created.jobId;
        await waitFor(async () => (await runningCount(gateway, jobId)) >= INSTANCES, "RUNNING");

        const totals: number[] = [];
        const perBatch: number[] = [];
        const maxStep: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          steps = [];
          const next = config(round + 2);
          const t0 = performance.now();
          const wallT0 = new Date();
          const result = await createUpdate(gateway, {
            jobId,
            kind: "UPDATE",
            config: { value: jobConfigSchema.parse(next), yaml: JSON.stringify(next) },
            options: OPTIONS,
            acting: ACTING,
          });
          if (!result.ok) throw new Error(`update refused: ${JSON.stringify(result.failure)}`);
          const id = result.update.id;
          await waitFor(
            async () => (await gateway.updates.get(id))?.state === "SUCCEEDED",
            "SUCCEEDED",
          );
          const ms = performance.now() - t0;
          const cpu = steps.reduce((s, r) => s + r.cpuMs, 0);
          const batches = INSTANCES / BATCH;
          log(
            `round ${round}: ${ms.toFixed(0)} ms, ${steps.length} steps, workflow CPU ${cpu.toFixed(1)} ms (${(cpu / batches).toFixed(1)} ms per batch), slowest step ${Math.max(...steps.map((s) => s.cpuMs)).toFixed(1)} ms`,
          );
          log(`  phases (ms): ${await phases(probe, jobId, wallT0)}`);
          totals.push(ms);
          perBatch.push(cpu / batches);
          maxStep.push(Math.max(...steps.map((s) => s.cpuMs)));
        }
        await runtime.stop();
        const isolated = await isolatedCpuPerBatch(gateway, probe, jobId, ROUNDS + 2);
        log(`isolated: workflow CPU ${isolated.toFixed(1)} ms per batch`);
        return {
          bench: NAME,
          unit: "ms workflow CPU per batch",
          value: Math.round(isolated * 10) / 10,
          n: INSTANCES,
          p50_ms: null,
          p95_ms: null,
          rss_mb: rssMb(),
          batch: BATCH,
          agents: AGENTS,
          total_ms: Math.round(median(totals)),
          live_step_cpu_ms_per_batch: Math.round(median(perBatch) * 10) / 10,
          live_max_step_cpu_ms: Math.round(median(maxStep) * 10) / 10,
        };
      } finally {
        await runtime.stop();
        await sim.stop();
        rmSync(dir, { recursive: true, force: true });
        await probe.end();
        await gateway.close();
        await db.dispose();
      }
    },
  },
];

const OPTIONS = {
  batchSize: BATCH,
  batchPercentage: 0,
  stopBeforeUpdate: false,
  startPaused: false,
  rollbackOnFailure: false,
  maxInstanceAttempts: 0,
  maxFailureInstances: 0,
  inPlace: false,
  startTasks: false,
};

/** The workflow's own CPU per batch: an update driven step by step with nothing else running. */
async function isolatedCpuPerBatch(
  gateway: ReturnType<typeof openGateway>,
  probe: pg.Client,
  jobId: string,
  version: number,
): Promise<number> {
  const next = config(version);
  const result = await createUpdate(gateway, {
    jobId,
    kind: "UPDATE",
    config: { value: jobConfigSchema.parse(next), yaml: JSON.stringify(next) },
    options: OPTIONS,
    acting: ACTING,
  });
  if (!result.ok) throw new Error(`update refused: ${JSON.stringify(result.failure)}`);
  let cpuMs = 0;
  for (let i = 0; i < 100; i++) {
    const before = process.cpuUsage();
    const step = await stepUpdate(gateway, result.update.id, { watchMs: 0 });
    const used = process.cpuUsage(before);
    cpuMs += (used.user + used.system) / 1000;
    if (step.outcome === "finished") return cpuMs / (INSTANCES / BATCH);
    // The tasks' part: every moved instance's new run is RUNNING.
    await probe.query(
      `UPDATE tasks SET config_version = desired_config_version, run_id = desired_run,
         state = 'RUNNING', started_at = now() - interval '1 hour', health_run_id = NULL
       WHERE job_id = $1 AND (config_version <> desired_config_version OR run_id < desired_run)`,
      [jobId],
    );
  }
  throw new Error("the isolated update did not finish in 100 steps");
}

/** When the job's runs first and last entered each state since `t0` (where the time went). */
async function phases(client: pg.Client, jobId: string, t0: Date): Promise<string> {
  const { rows } = await client.query<{ state: string; first: Date; last: Date; n: number }>(
    `SELECT state::text, min(at) AS first, max(at) AS last, count(*)::int AS n FROM task_events
     WHERE job_id = $1 AND at >= $2 GROUP BY state ORDER BY min(at)`,
    [jobId, t0],
  );
  const rel = (d: Date) => (d.getTime() - t0.getTime()).toFixed(0);
  return rows.map((r) => `${r.state}×${r.n} ${rel(r.first)}–${rel(r.last)}`).join(", ");
}

async function runningCount(
  gateway: ReturnType<typeof openGateway>,
  jobId: string,
): Promise<number> {
  const job = await gateway.jobs.get(jobId);
  return job?.taskStats.RUNNING ?? 0;
}

async function waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
  const t0 = performance.now();
  while (!(await done())) {
    if (performance.now() - t0 > 180_000) throw new Error(`not ${what} after 180 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export default benchmarks;
