/**
 * preemptions.list_page_1m: ms per page of 50 (p95 over every filter the
 * console offers) on 1,000,000 preemption rows, newest first by keyset:
 * no filter, a page deep in the history, a victim pool, either side of a
 * pool, a pool and everything below it, a job, a task, intra-pool in the
 * last week. Rows are loaded with one INSERT ... SELECT (the read path is
 * what is measured), with the hourly and daily counts recordMany keeps;
 * the victims' tasks exist, so the join to the task's current state is real.
 * Beside it, the counts behind the charts: all time, a week, one pool.
 *
 * preemptions.record_10k: victims/s recorded by `recordMany` in cycles of
 * 100 (each its own transaction: the task's move, its event and the row).
 */

import { preemptionNumbers } from "@peloton/test-support/storage/preemption-builders.ts";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import { type Benchmark, log, percentile, rssMb, timeRounds } from "../../../bench/harness.ts";
import { type NewPreemption, openGateway, type PreemptionFilters } from "../src/index.ts";
import { benchPool } from "./bench-pool.ts";

const ROWS = 1_000_000;
const JOBS = 10_000;
const INSTANCES = 20; // 200,000 tasks, each preempted 5 times
const POOLS = 200; // leaves /t0/p0 … /t19/p199, ten per parent
const PAGE = 50;

/** 1M rows over ~359 days (one every 31 s), victims and beneficiaries spread over the pools. */
const LOAD_SQL = `
  INSERT INTO jobs (id, name, type, pool_id, owner, config_yaml, config, instance_count, updated_at)
  SELECT md5('job' || j)::uuid, 'job-' || j, 'BATCH', $1::uuid, 'bench', '', '{}', ${INSTANCES}, now()
  FROM generate_series(0, ${JOBS - 1}) j;
  INSERT INTO tasks (id, job_id, instance_id, state, goal_state, updated_at)
  SELECT md5('task' || t)::uuid, md5('job' || (t / ${INSTANCES}))::uuid, t % ${INSTANCES},
         'RUNNING', 'SUCCEEDED', now()
  FROM generate_series(0, ${JOBS * INSTANCES - 1}) t;
  INSERT INTO preemptions (at, kind, victim_task_id, victim_job_id, victim_job_name,
    victim_instance_id, victim_run_id, victim_priority, victim_state, victim_state_after,
    victim_pool_id, victim_pool_path, beneficiary_pool_id, beneficiary_pool_path,
    beneficiary_pool_paths, level, reason, numbers, pool_keys)
  SELECT timestamptz '2026-01-01' + g * interval '31 seconds',
         (CASE WHEN g % 10 = 0 THEN 'INTRA_POOL' ELSE 'INTER_POOL' END)::"PreemptionKind",
         md5('task' || t)::uuid, md5('job' || (t / ${INSTANCES}))::uuid, 'job-' || (t / ${INSTANCES}),
         (t % ${INSTANCES})::int, (1 + g % 3)::int, (g % 10)::int, 'RUNNING', 'PREEMPTING',
         md5('pool' || v)::uuid, '/t' || (v / 10) || '/p' || v,
         md5('pool' || b)::uuid, '/t' || (b / 10) || '/p' || b,
         ARRAY['/t' || (b / 10) || '/p' || b],
         CASE WHEN v / 10 = b / 10 THEN '/t' || (v / 10) ELSE '/' END,
         'pool over its cpu entitlement', '{}'::jsonb,
         ARRAY['victim:/t' || (v / 10), 'victim:/t' || (v / 10) || '/p' || v,
               'beneficiary:/t' || (b / 10), 'beneficiary:/t' || (b / 10) || '/p' || b]
  FROM generate_series(0::bigint, ${ROWS - 1}) g,
       LATERAL (SELECT (g * 7919) % ${JOBS * INSTANCES} AS t, (g * 31) % ${POOLS} AS v,
                       (g * 17 + 5) % ${POOLS} AS b) x;
  INSERT INTO preemption_counts (period_seconds, start, pool, side, n)
  SELECT d.period, to_timestamp(floor(extract(epoch FROM s.at) / d.period) * d.period), s.pool,
         s.side, count(*)
  FROM (SELECT at, victim_pool_path AS pool,
               CASE WHEN kind = 'INTRA_POOL' THEN 'within' ELSE 'out' END AS side FROM preemptions
        UNION ALL
        SELECT at, unnest(beneficiary_pool_paths), 'in' FROM preemptions
        WHERE kind = 'INTER_POOL') s
       CROSS JOIN (VALUES (3600), (86400)) AS d(period)
  GROUP BY 1, 2, 3, 4;
  ANALYZE jobs; ANALYZE tasks; ANALYZE preemptions; ANALYZE preemption_counts;`;

const QUERIES: { name: string; filters: PreemptionFilters; deep?: boolean }[] = [
  { name: "newest", filters: {} },
  { name: "deep_page", filters: {}, deep: true },
  { name: "victim_pool", filters: { pool: { path: "/t7/p73", side: "victim", subtree: false } } },
  { name: "either_side", filters: { pool: { path: "/t7/p73", side: "either", subtree: false } } },
  { name: "subtree", filters: { pool: { path: "/t7", side: "victim", subtree: true } } },
  { name: "either_subtree", filters: { pool: { path: "/t7", side: "either", subtree: true } } },
  { name: "job", filters: { jobId: "" } },
  { name: "task", filters: { taskId: "" } },
  {
    name: "intra_last_week",
    filters: { kind: "INTRA_POOL", since: new Date("2026-12-18T00:00:00Z") },
  },
];

const benchmarks: Benchmark[] = [
  {
    name: "preemptions.list_page_1m",
    async run() {
      const db = await createScratchDatabase("peloton_bench");
      const gateway = openGateway(db.url, { max: 2 });
      try {
        const pool = await benchPool(gateway, "bench");
        const t0 = performance.now();
        const pg = await import("pg");
        const client = new pg.default.Client({ connectionString: db.url });
        await client.connect();
        let ids: { rows: { job: string; task: string }[] };
        try {
          for (const statement of LOAD_SQL.split(";").filter((s) => s.trim())) {
            await client.query(statement, statement.includes("$1") ? [pool.id] : []);
          }
          ids = await client.query<{ job: string; task: string }>(
            "SELECT md5('job' || 4242)::uuid::text AS job, md5('task' || 84840)::uuid::text AS task",
          );
        } finally {
          await client.end();
        }
        log(`loaded ${ROWS} preemptions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        const { job, task } = ids.rows[0]!;
        // Half a year back: the keyset starts in the middle of the history.
        const deepCursor = `${new Date("2026-07-01T00:00:00Z").getTime()}_${ROWS}`;

        const all: number[] = [];
        const extra: Record<string, number> = {};
        for (const q of QUERIES) {
          const filters: PreemptionFilters =
            q.name === "job" ? { jobId: job } : q.name === "task" ? { taskId: task } : q.filters;
          let rows = 0;
          const times = await timeRounds(
            async () => {
              const page = await gateway.preemptions.list({
                ...filters,
                limit: PAGE,
                cursor: q.deep ? deepCursor : null,
              });
              rows = page.items.length;
            },
            { warmup: 3, rounds: 25 },
          );
          all.push(...times);
          extra[`${q.name}_p95_ms`] = Number(percentile(times, 95).toFixed(2));
          log(
            `${q.name}: ${rows} rows, p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
          );
        }
        // The counts behind the charts (not part of the page figure), in the buckets the
        // API picks for the range (at most 60: a week for a year, 3 hours for a week).
        const counts: [string, PreemptionFilters, number][] = [
          ["counts_all_time", { since: new Date("2026-01-01") }, 7 * 86400],
          ["counts_7d", { since: new Date("2026-12-18") }, 3 * 3600],
          [
            "counts_pool_all_time",
            {
              since: new Date("2026-01-01"),
              pool: { path: "/t7/p73", side: "either", subtree: false },
            },
            6 * 3600,
          ],
        ];
        for (const [name, filters, bucket] of counts) {
          // As the console asks: the busiest pools by name, the rest together.
          const top = { topPools: 4 };
          const times = await timeRounds(
            () => gateway.preemptions.countsByPool(filters, bucket, top),
            {
              warmup: 1,
              rounds: 5,
            },
          );
          extra[`${name}_ms`] = Number(percentile(times, 50).toFixed(1));
          log(`${name}: p50 ${percentile(times, 50).toFixed(1)} ms`);
        }
        all.sort((a, b) => a - b);
        const p50 = Number(percentile(all, 50).toFixed(2));
        return {
          bench: "preemptions.list_page_1m",
          unit: "ms",
          value: p50,
          n: ROWS,
          p50_ms: p50,
          p95_ms: Number(percentile(all, 95).toFixed(2)),
          rss_mb: rssMb(),
          ...extra,
        };
      } finally {
        await gateway.close();
        await db.dispose();
      }
    },
  },
  {
    name: "preemptions.record_10k",
    async run() {
      const N = 10_000;
      const CYCLE = 100;
      const db = await createScratchDatabase("peloton_bench");
      const gateway = openGateway(db.url, { max: 2 });
      try {
        const pool = await benchPool(gateway, "web");
        const { id: jobId } = await gateway.jobs.create({
          name: "web",
          type: "SERVICE",
          poolId: pool.id,
          owner: "bench",
          configYaml: "",
          config: {},
          instanceCount: N,
        });
        await gateway.tasks.insertMany(
          Array.from({ length: N }, (_, instanceId) => ({
            jobId,
            instanceId,
            state: "RUNNING" as const,
            goalState: "RUNNING" as const,
            priority: 0,
            preemptible: true,
            cpu: 1,
            memMb: 256,
            diskMb: 0,
            gpu: 0,
          })),
        );
        const pg = await import("pg");
        const client = new pg.default.Client({ connectionString: db.url });
        await client.connect();
        const tasks = (
          await client.query<{ id: string; instance_id: number }>(
            "SELECT id::text, instance_id FROM tasks ORDER BY instance_id",
          )
        ).rows;
        await client.end();
        const rows: NewPreemption[] = tasks.map((t) => ({
          at: new Date(),
          kind: "INTER_POOL",
          victim: {
            taskId: t.id,
            jobId,
            jobName: "web",
            instanceId: t.instance_id,
            runId: 1,
            priority: 0,
            state: "RUNNING",
            stateAfter: "PREEMPTING",
            poolId: pool.id,
            poolPath: "/web",
          },
          beneficiary: {
            poolId: null,
            poolPath: "/batch",
            gangId: null,
            task: null,
            priority: null,
          },
          level: "/",
          reason: "/web was over its cpu entitlement by 1 core (allocation 10, entitlement 9)",
          numbers: preemptionNumbers({ allocation: 10, entitlement: 9, victim: 1 }),
        }));
        const cycles: number[] = [];
        const t0 = performance.now();
        for (let i = 0; i < N; i += CYCLE) {
          const c0 = performance.now();
          const out = await gateway.transaction((tx) =>
            tx.preemptions.recordMany(rows.slice(i, i + CYCLE)),
          );
          if (out.recorded.length !== CYCLE) throw new Error("every victim should be recorded");
          cycles.push(performance.now() - c0);
        }
        const ms = performance.now() - t0;
        cycles.sort((a, b) => a - b);
        return {
          bench: "preemptions.record_10k",
          unit: "victims/s",
          value: Math.round((N / ms) * 1000),
          n: N,
          p50_ms: Number(percentile(cycles, 50).toFixed(2)),
          p95_ms: Number(percentile(cycles, 95).toFixed(2)),
          rss_mb: rssMb(),
          victims_per_cycle: CYCLE,
        };
      } finally {
        await gateway.close();
        await db.dispose();
      }
    },
  },
];

export default benchmarks;
