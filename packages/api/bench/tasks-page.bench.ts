/**
 * `npm run bench -- api.tasks`: `tasks.list` over tRPC HTTP (the console's
 * and the CLI's path) on a job with 1,000,000 task rows, inserted with the
 * bulk path the job manager uses. Pages of 100 instances: walking from the
 * start by cursor, and starting anywhere in the job (instanceFrom), in
 * instance order; beside them the same with a state filter and sorted by
 * state (benchmarks.md goal: p95 < 50 ms per page).
 */
import { ensureRootPool } from "@peloton/scheduler";
import { insertBigJob } from "@peloton/test-support/storage/big-job.ts";
import { createTRPCClient, httpLink } from "@trpc/client";
import superjson from "superjson";
import {
  type Benchmark,
  type BenchResult,
  log,
  median,
  percentile,
  round3,
  rssMb,
  seededRandom,
} from "../../../bench/harness.ts";
import type { AppRouter } from "../src/index.ts";
import { withServedApi } from "./served-api.ts";

const TASKS = 1_000_000;
const PAGE = 100;
const REQUESTS = 200;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const benchmarks: Benchmark[] = [
  {
    name: "api.tasks_page_1m",
    run: (): Promise<BenchResult> =>
      withServedApi("peloton_bench_tasks", async ({ gateway, api }) => {
        await ensureRootPool(gateway);
        const root = (await gateway.pools.getByPath("/"))!;
        const pool = await gateway.pools.create(
          { path: "/bench", name: "bench", parentId: root.id, resources: {} },
          "bench",
        );
        const t0 = performance.now();
        const jobId = await insertBigJob(gateway, {
          poolId: pool.id,
          name: "million",
          instances: TASKS,
        });
        log(`inserted ${TASKS} tasks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        await gateway.ping();
        const client = createTRPCClient<AppRouter>({
          links: [httpLink({ url: `${api.url}/api/trpc`, transformer: superjson })],
        });
        const list = (input: Parameters<typeof client.tasks.list.query>[0]) =>
          client.tasks.list.query(input);
        const rand = seededRandom(0x1_000_000);

        // Warm up the path (plans, caches), then measure.
        for (let i = 0; i < 10; i++) await list({ jobId, limit: PAGE });
        const walk: number[] = [];
        let cursor: string | null | undefined;
        for (let i = 0; i < REQUESTS / 2; i++) {
          let next: string | null = null;
          walk.push(
            await timed(async () => {
              next = (await list({ jobId, limit: PAGE, cursor })).nextCursor;
            }),
          );
          cursor = next;
        }
        const anywhere: number[] = [];
        for (let i = 0; i < REQUESTS / 2; i++) {
          const from = Math.floor(rand() * (TASKS - PAGE));
          anywhere.push(await timed(() => list({ jobId, limit: PAGE, instanceFrom: from })));
        }
        const filtered: number[] = [];
        for (let i = 0; i < 50; i++) {
          const from = Math.floor(rand() * (TASKS - PAGE));
          filtered.push(
            await timed(() => list({ jobId, limit: PAGE, states: ["FAILED"], instanceFrom: from })),
          );
        }
        const byState: number[] = [];
        cursor = undefined;
        for (let i = 0; i < 50; i++) {
          let next: string | null = null;
          byState.push(
            await timed(async () => {
              next = (await list({ jobId, limit: PAGE, sort: "state", order: "desc", cursor }))
                .nextCursor;
            }),
          );
          cursor = next;
        }
        const times = [...walk, ...anywhere].sort((a, b) => a - b);
        const p50 = median(times);
        const p95 = percentile(times, 95);
        const p95Of = (xs: number[]) =>
          round3(
            percentile(
              [...xs].sort((a, b) => a - b),
              95,
            ),
          );
        log(
          `api.tasks_page_1m: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (goal p95 < 50 ms); ` +
            `state filter p95 ${p95Of(filtered)} ms, sorted by state p95 ${p95Of(byState)} ms`,
        );
        return {
          bench: "api.tasks_page_1m",
          unit: "ms",
          value: round3(p50),
          n: times.length,
          p50_ms: round3(p50),
          p95_ms: round3(p95),
          rss_mb: rssMb(),
          goal_p95_ms: 50,
          page: PAGE,
          rows: TASKS,
          state_filter_p95_ms: p95Of(filtered),
          sort_state_p95_ms: p95Of(byState),
        };
      }),
  },
];

export default benchmarks;
