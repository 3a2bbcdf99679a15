/**
 * preemptor.cycle_tasks_100k: one full preemptor cycle on 100,000 tasks in
 * PostgreSQL, as the leader runs it — the snapshot reads (usage per pool,
 * the PENDING tasks, the candidates of the pools due), entitlements, the
 * engine's decision, the rows, and their record (each victim's move, event and row,
 * the jobs' counts and states) in one transaction through the task writer.
 *
 * A busy period: 100 leaf pools under 10 parents, 1,000 jobs; 99,000
 * one-core tasks RUNNING in 90 pools that fill the cluster (99,000 cores)
 * and 1,000 PENDING in the 10 others. Their demand takes 10 cores from each
 * full pool: 900 victims a cycle, all due at once (sustained count 1); the
 * candidates of all 90 pools are read.
 * Between rounds (not timed) the victims are put back as they were.
 * Beside the median: the read, decide and write parts, the victims, and
 * `quiet_ms`, a cycle on the same 100,000 tasks when no pool is over and no
 * gang waits (the aggregate reads only: what every period costs normally).
 */
import { jobConfigSchema } from "@peloton/engine";
import { openGateway } from "@peloton/storage";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import pg from "pg";
import { type Benchmark, log, median, percentile, rssMb } from "../../../bench/harness.ts";
import { silentLogger } from "../src/common/logger.ts";
import { ensureRootPool } from "../src/demo/seed.ts";
import { PreemptorLoop } from "../src/resmgr/preemptor-loop.ts";
import { JobConfigs } from "../src/taskwriter/job-configs.ts";
import { TaskWriter } from "../src/taskwriter/task-writer.ts";

const PARENTS = 10;
const LEAVES = 100;
const JOBS_PER_LEAF = 10;
const TASKS_PER_JOB = 100;
const HUNGRY = 10; // the last 10 leaves wait
const WARMUP = 1;
const ROUNDS = Number(process.env.PELOTON_BENCH_ROUNDS ?? 5);

const config = jobConfigSchema.parse({
  name: "bench",
  instanceCount: TASKS_PER_JOB,
  sla: { priority: 1, preemptible: true },
  defaultConfig: { resource: { cpuLimit: 1, memLimitMb: 64 }, command: { value: "true" } },
});

/** Jobs and tasks in one statement each: job j in leaf j / 10; tasks RUNNING or (hungry) PENDING. */
const LOAD_SQL = (leafIds: string[]) => `
  INSERT INTO jobs (id, name, type, pool_id, owner, config_yaml, config, instance_count, state,
                    priority, updated_at, task_stats)
  SELECT md5('job' || j)::uuid, 'job-' || j, 'BATCH',
         (ARRAY['${leafIds.join("','")}']::uuid[])[j / ${JOBS_PER_LEAF} + 1], 'bench', '',
         '${JSON.stringify(config).replace(/'/g, "''")}'::jsonb, ${TASKS_PER_JOB},
         'RUNNING', 1, now(), '{}'
  FROM generate_series(0, ${LEAVES * JOBS_PER_LEAF - 1}) j;
  INSERT INTO tasks (id, job_id, instance_id, state, goal_state, priority, preemptible, cpu,
                     mem_mb, mesos_task_id, agent_id, started_at, queued_at, updated_at)
  SELECT md5('task' || t)::uuid, md5('job' || (t / ${TASKS_PER_JOB}))::uuid, t % ${TASKS_PER_JOB},
         (CASE WHEN t / ${TASKS_PER_JOB * JOBS_PER_LEAF} >= ${LEAVES - HUNGRY}
               THEN 'PENDING' ELSE 'RUNNING' END)::"TaskState",
         'SUCCEEDED', 1, true, 1, 64,
         CASE WHEN t / ${TASKS_PER_JOB * JOBS_PER_LEAF} >= ${LEAVES - HUNGRY} THEN NULL
              ELSE md5('job' || (t / ${TASKS_PER_JOB})) || '-' || (t % ${TASKS_PER_JOB}) || '-1' END,
         'agent-' || (t % 500), timestamptz '2026-11-01' + t * interval '1 second', now(), now()
  FROM generate_series(0, ${LEAVES * JOBS_PER_LEAF * TASKS_PER_JOB - 1}) t;
  UPDATE jobs j SET task_stats = (
    SELECT jsonb_object_agg(s.state, s.n) FROM (
      SELECT state::text AS state, count(*)::int AS n FROM tasks WHERE job_id = j.id GROUP BY 1
    ) s);
  ANALYZE jobs; ANALYZE tasks;`;

/** The victims as they were before the cycle (untimed), so every round does the same work. */
const RESET_SQL = `
  UPDATE tasks SET state = 'RUNNING', reason = NULL, message = NULL WHERE state = 'PREEMPTING';
  DELETE FROM preemptions; DELETE FROM preemption_counts; DELETE FROM task_events;
  UPDATE jobs j SET task_stats = (
    SELECT jsonb_object_agg(s.state, s.n) FROM (
      SELECT state::text AS state, count(*)::int AS n FROM tasks WHERE job_id = j.id GROUP BY 1
    ) s), state = 'RUNNING';`;

const benchmarks: Benchmark[] = [
  {
    name: "preemptor.cycle_tasks_100k",
    async run() {
      const db = await createScratchDatabase("peloton_bench_preemptor");
      const gateway = openGateway(db.url, { max: 8 });
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await ensureRootPool(gateway);
        const root = (await gateway.pools.getByPath("/"))!;
        const wide = { reservation: 0, limit: 1_000_000, share: 1 };
        const resources = { cpu: wide, memory: { ...wide, limit: 100_000_000 }, disk: wide };
        const leafIds: string[] = [];
        for (let p = 0; p < PARENTS; p++) {
          const parent = await gateway.pools.create(
            { path: `/org-${p}`, name: `org-${p}`, parentId: root.id, resources },
            "bench",
          );
          for (let l = 0; l < LEAVES / PARENTS; l++) {
            const leaf = await gateway.pools.create(
              {
                path: `/org-${p}/team-${l}`,
                name: `team-${l}`,
                parentId: parent.id,
                resources,
              },
              "bench",
            );
            leafIds.push(leaf.id);
          }
        }
        // 99,000 cores: exactly what the RUNNING tasks hold.
        for (let h = 0; h < 99; h++)
          await gateway.hosts.upsert({
            hostname: `host-${h}`,
            agentId: `agent-${h}`,
            attributes: {},
            cpu: 1000,
            memMb: 10_000_000,
            diskMb: 10_000_000,
            gpu: 0,
            ports: [[31000, 32000]],
            state: "UP",
          });
        const t0 = performance.now();
        await client.query(LOAD_SQL(leafIds));
        log(`preemptor bench: 100,000 tasks loaded in ${Math.round(performance.now() - t0)} ms`);

        const log_ = silentLogger();
        let killed = 0;
        const loop = new PreemptorLoop({
          gateway,
          writer: new TaskWriter(gateway, log_),
          configs: new JobConfigs(gateway),
          log: log_,
          kill: async (orders) => {
            killed += orders.length;
          },
          // Every cycle counts, and every over-allocated pool is due at once.
          periodMs: 1,
          sustainedPeriods: 1,
        });
        const times: number[] = [];
        const parts = { read: [] as number[], decide: [] as number[], write: [] as number[] };
        let victims = 0;
        for (let i = 0; i < WARMUP + ROUNDS; i++) {
          await client.query(RESET_SQL);
          await new Promise((r) => setTimeout(r, 5));
          const start = performance.now();
          const cycle = await loop.cycle();
          const ms = performance.now() - start;
          if (!cycle) throw new Error("the cycle's input was refused");
          if (i < WARMUP) continue;
          times.push(ms);
          parts.read.push(cycle.ms.read);
          parts.decide.push(cycle.ms.decide);
          parts.write.push(cycle.ms.write);
          victims = cycle.outcome.recorded.length;
          log(
            `preemptor bench round ${i - WARMUP + 1}: ${ms.toFixed(0)} ms (read ${cycle.ms.read}, decide ${cycle.ms.decide}, write ${cycle.ms.write}), ${victims} victims, ${cycle.outcome.stale.length} stale`,
          );
        }
        if (victims === 0 || killed === 0) throw new Error("the busy period preempted nothing");
        // The same cluster quiet (the waiting tasks gone, no pool over): the aggregates only.
        await client.query(
          `${RESET_SQL} UPDATE tasks SET state = 'SUCCEEDED' WHERE state = 'PENDING';`,
        );
        const quiet: number[] = [];
        for (let i = 0; i < 3; i++) {
          const start = performance.now();
          const cycle = await loop.cycle();
          quiet.push(performance.now() - start);
          if (cycle?.outcome.recorded.length) throw new Error("the quiet cluster preempted");
        }
        log(`preemptor bench quiet: ${quiet.map((q) => q.toFixed(0)).join(", ")} ms`);
        const sorted = [...times].sort((a, b) => a - b);
        return {
          bench: "preemptor.cycle_tasks_100k",
          unit: "ms",
          value: Math.round(median(times)),
          n: LEAVES * JOBS_PER_LEAF * TASKS_PER_JOB,
          p50_ms: Math.round(median(times)),
          p95_ms: Math.round(percentile(sorted, 95)),
          rss_mb: rssMb(),
          victims,
          read_ms: median(parts.read),
          decide_ms: median(parts.decide),
          write_ms: median(parts.write),
          quiet_ms: Math.round(median(quiet)),
        };
      } finally {
        await client.end();
        await gateway.close();
        await db.dispose();
      }
    },
  },
];

export default benchmarks;
