/**
 * e2e.batch_10k_agents_500: one 10,000-instance batch job of simulated tasks
 * on 500 simulated agents, end to end — from the job's submission (the job
 * manager's createJob, what `jobs.create` calls) to all 10,000 RUNNING rows
 * stored in PostgreSQL — through the real runtime: leader election, the host
 * manager on mesos-sim over HTTP, admission, placement, launches, status
 * updates written in batches. Reports tasks/s and, beside it, the PostgreSQL
 * rows written per second in the same window (pg_stat_database) and the CPU
 * seconds each process used per round (scheduler, mesos-sim, the local
 * PostgreSQL's processes) against the machine's cores: when their sum is
 * near rounds × cores, the figure is what the machine can run, not a wait.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { jobConfigSchema } from "@peloton/engine";
import { openGateway } from "@peloton/storage";
import { spawnSim } from "@peloton/test-support/mesos/sim-process.ts";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import pg from "pg";
import { pino } from "pino";
import { commandCpuSeconds, processCpuSeconds } from "../../../bench/cpu-time.ts";
import { type Benchmark, log, median, rssMb } from "../../../bench/harness.ts";
import { startScheduler } from "../src/assembly/replica.ts";
import { silentLogger } from "../src/common/logger.ts";
import { ensureRootPool } from "../src/demo/seed.ts";
import { mesosHostAdapter } from "../src/hostmgr/mesos/mesos-adapter.ts";
import { createJob } from "../src/jobmgr/create-job.ts";

const INSTANCES = 10_000;
const AGENTS = 500;
const ROUNDS = Number(process.env.PELOTON_BENCH_ROUNDS ?? 3);

const jobConfig = (round: number) =>
  jobConfigSchema.parse({
    name: `bench-${round}`,
    instanceCount: INSTANCES,
    sla: { preemptible: true },
    defaultConfig: {
      resource: { cpuLimit: 0.1, memLimitMb: 32 },
      command: { value: "true" },
    },
  });

async function rowsWritten(client: pg.Client): Promise<number> {
  // Backends flush their counters when idle or once a second; ask for a flush of ours.
  const { rows } = await client.query<{ n: string }>(
    `SELECT (tup_inserted + tup_updated + tup_deleted)::text AS n
     FROM pg_stat_database WHERE datname = current_database()`,
  );
  return Number(rows[0]!.n);
}

/** When the job's tasks first and last entered each state, from their events (where the time went). */
async function phases(client: pg.Client, jobId: string, t0: number): Promise<string> {
  const { rows } = await client.query<{ state: string; first: Date; last: Date }>(
    `SELECT state::text, min(at) AS first, max(at) AS last FROM task_events
     WHERE job_id = $1 GROUP BY state ORDER BY min(at)`,
    [jobId],
  );
  const rel = (d: Date) => (d.getTime() - t0).toFixed(0);
  return rows.map((r) => `${r.state} ${rel(r.first)}–${rel(r.last)}`).join(", ");
}

/** CPU seconds used so far by the scheduler (this process), mesos-sim and PostgreSQL. */
function cpuNow(simPid: number | undefined) {
  const self = process.cpuUsage();
  return {
    scheduler: (self.user + self.system) / 1e6,
    sim: simPid === undefined ? null : processCpuSeconds(simPid),
    postgres: commandCpuSeconds("postgres"),
  };
}

type CpuReading = ReturnType<typeof cpuNow>;

function cpuSpent(before: CpuReading, after: CpuReading): CpuReading {
  const d = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
  return {
    scheduler: after.scheduler - before.scheduler,
    sim: d(before.sim, after.sim),
    postgres: d(before.postgres, after.postgres),
  };
}

const medianOrNull = (values: readonly (number | null)[]) =>
  values.some((v) => v === null) ? null : Math.round(median(values as number[]) * 100) / 100;

async function runningCount(client: pg.Client, jobId: string): Promise<number> {
  const { rows } = await client.query<{ n: number | null }>(
    "SELECT (task_stats ->> 'RUNNING')::int AS n FROM jobs WHERE id = $1",
    [jobId],
  );
  return rows[0]?.n ?? 0;
}

const benchmarks: Benchmark[] = [
  {
    name: "e2e.batch_10k_agents_500",
    async run() {
      const db = await createScratchDatabase("peloton_bench_e2e");
      const gateway = openGateway(db.url, { max: 8 });
      const probe = new pg.Client({ connectionString: db.url });
      await probe.connect();
      for (const ix of (process.env.PELOTON_BENCH_DROP ?? "").split(",").filter(Boolean))
        await probe.query(`DROP INDEX "${ix}"`);
      // The cluster in its own process, as a real master is: it does not share
      // the scheduler's event loop.
      const dir = mkdtempSync(join(tmpdir(), "peloton-e2e-"));
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
      const runtime = startScheduler({
        databaseUrl: db.url,
        adapter: mesosHostAdapter({ master: sim.url, hostRefreshMs: 1_000 }),
        // PELOTON_BENCH_LOG=debug shows each loop's rounds and writes (on stderr).
        log: process.env.PELOTON_BENCH_LOG
          ? pino({ level: process.env.PELOTON_BENCH_LOG }, pino.destination(2))
          : silentLogger(),
        election: { retryMs: 100 },
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
        // Every agent's offer in hand before the clock starts.
        const offered = performance.now();
        while ((runtime.hostManager?.hosts().length ?? 0) < AGENTS) {
          if (performance.now() - offered > 60_000)
            throw new Error(
              `only ${runtime.hostManager?.hosts().length} of ${AGENTS} agents offered`,
            );
          await new Promise((r) => setTimeout(r, 50));
        }

        const rates: number[] = [];
        const rowRates: number[] = [];
        const cpu: CpuReading[] = [];
        const walls: number[] = [];
        for (let round = -1; round < ROUNDS; round++) {
          const rowsBefore = await rowsWritten(probe);
          const cpuBefore = cpuNow(sim.pid);
          const t0 = performance.now();
          const wallT0 = Date.now();
          const created = await createJob(gateway, {
            config: jobConfig(round),
            configYaml: "",
            poolPath: "/bench",
            acting: { login: "bench", via: "test" },
          });
          if (!created.ok) throw new Error(`job refused: ${JSON.stringify(created.failure)}`);
          const submitMs = performance.now() - t0;
          let lastLog = performance.now();
          for (;;) {
            const running = await runningCount(probe, created.jobId);
            if (running >= INSTANCES) break;
            if (performance.now() - t0 > 300_000)
              throw new Error(`${running} of ${INSTANCES} RUNNING after 300 s`);
            if (performance.now() - lastLog > 5_000) {
              lastLog = performance.now();
              log(`round ${round}: ${running} RUNNING after ${(lastLog - t0).toFixed(0)} ms`);
            }
            await new Promise((r) => setTimeout(r, 20));
          }
          const ms = performance.now() - t0;
          const spent = cpuSpent(cpuBefore, cpuNow(sim.pid));
          // Let the backends' statistics reach pg_stat_database.
          await new Promise((r) => setTimeout(r, 1_200));
          const rows = (await rowsWritten(probe)) - rowsBefore;
          const rate = (INSTANCES / ms) * 1000;
          log(
            `round ${round}: ${ms.toFixed(0)} ms (submit ${submitMs.toFixed(0)} ms), ${rate.toFixed(0)} tasks/s, ${rows} rows, ${((rows / ms) * 1000).toFixed(0)} rows/s`,
          );
          log(`  phases (ms): ${await phases(probe, created.jobId, wallT0)}`);
          log(
            `  CPU s: scheduler ${spent.scheduler.toFixed(2)}, mesos-sim ${spent.sim?.toFixed(2)}, postgres ${spent.postgres?.toFixed(2)} in ${(ms / 1000).toFixed(2)} s on ${availableParallelism()} cores`,
          );
          if (round >= 0) {
            rates.push(rate);
            rowRates.push((rows / ms) * 1000);
            cpu.push(spent);
            walls.push(ms / 1000);
          }
        }
        const stats = runtime.scheduling?.writer.stats;
        return {
          bench: "e2e.batch_10k_agents_500",
          unit: "tasks/s",
          value: Math.round(median(rates)),
          n: INSTANCES,
          p50_ms: null,
          p95_ms: null,
          rss_mb: rssMb(),
          agents: AGENTS,
          pg_rows_per_s: Math.round(median(rowRates)),
          writer_transactions: stats?.transactions ?? null,
          writer_changes: stats?.applied ?? null,
          cores: availableParallelism(),
          round_s: medianOrNull(walls),
          cpu_s_scheduler: medianOrNull(cpu.map((c) => c.scheduler)),
          cpu_s_sim: medianOrNull(cpu.map((c) => c.sim)),
          cpu_s_postgres: medianOrNull(cpu.map((c) => c.postgres)),
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

export default benchmarks;
