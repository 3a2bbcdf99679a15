/**
 * `npm run bench -- pools`: `pools.tree` over tRPC HTTP (the console's and the
 * CLI's path: HTTP, superjson, the router, the respool service, PostgreSQL)
 * with 1,000 pools of a seeded random tree, four kinds, and the demand and
 * allocation of the tree's leaves held by real task rows (benchmarks.md goal:
 * p95 < 50 ms).
 */

import { ensureRootPool } from "@peloton/scheduler";
import type { NewTask, StorageGateway } from "@peloton/storage";
import { randomPools } from "@peloton/test-support/engine/random-pools.ts";
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
  timeRounds,
} from "../../../bench/harness.ts";
import type { AppRouter } from "../src/index.ts";
import { transformer } from "../src/transformer.ts";
import { withServedApi } from "./served-api.ts";

const POOLS = 1000;
const REQUESTS = 200;

/** The random tree through the repositories, one transaction; usage as one job per leaf. */
export async function storeRandomTree(gateway: StorageGateway): Promise<void> {
  const input = randomPools(seededRandom(0x7001 ^ POOLS), POOLS);
  await ensureRootPool(gateway);
  const root = (await gateway.pools.getByPath("/"))!;
  await gateway.hosts.upsert({
    hostname: "bench-host",
    agentId: "bench-agent",
    attributes: {},
    cpu: input.capacity.cpu ?? 0,
    memMb: input.capacity.memory ?? 0,
    diskMb: input.capacity.disk ?? 0,
    gpu: input.capacity.gpu ?? 0,
    ports: [],
    state: "UP",
  });
  const idByPath = new Map<string, string>([["/", root.id]]);
  const tasks: NewTask[] = [];
  await gateway.transaction(async (tx) => {
    for (const p of input.pools) {
      const parent = p.path.slice(0, p.path.lastIndexOf("/")) || "/";
      const pool = await tx.pools.create(
        {
          path: p.path,
          name: p.path.slice(p.path.lastIndexOf("/") + 1),
          parentId: idByPath.get(parent)!,
          owningTeam: "bench",
          resources: p.resources,
          slackLimitMaxPercent: p.slackLimitMaxPercent ?? 20,
        },
        "bench",
      );
      idByPath.set(p.path, pool.id);
      if (!p.demand && !p.allocation) continue;
      const job = await tx.jobs.create({
        name: `job-${pool.name}`,
        type: "BATCH",
        poolId: pool.id,
        owner: "bench",
        configYaml: "",
        config: {},
        instanceCount: 2,
        state: "RUNNING",
      });
      for (const [instanceId, state, r] of [
        [0, "PENDING", p.demand],
        [1, "RUNNING", p.allocation],
      ] as const) {
        tasks.push({
          jobId: job.id,
          instanceId,
          state,
          goalState: "SUCCEEDED",
          priority: 0,
          preemptible: true,
          cpu: r?.cpu ?? 0,
          memMb: r?.memory ?? 0,
          diskMb: r?.disk ?? 0,
          gpu: r?.gpu ?? 0,
        });
      }
    }
    await tx.tasks.insertMany(tasks);
  });
}

const benchmarks: Benchmark[] = [
  {
    name: `pools.tree_api_${POOLS}`,
    run: (): Promise<BenchResult> =>
      withServedApi("peloton_bench_pools", async ({ gateway, api }) => {
        await storeRandomTree(gateway);
        const client = createTRPCClient<AppRouter>({
          links: [httpLink({ url: `${api.url}/api/trpc`, transformer })],
        });
        const first = await client.pools.tree.query();
        if (first.pools.length !== POOLS)
          throw new Error(`expected ${POOLS} pools, got ${first.pools.length}`);
        const times = await timeRounds(() => client.pools.tree.query(), {
          warmup: 10,
          rounds: REQUESTS,
        });
        const p50 = median(times);
        const p95 = percentile(times, 95);
        log(
          `pools.tree_api_${POOLS}: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (goal p95 < 50 ms)`,
        );
        return {
          bench: `pools.tree_api_${POOLS}`,
          unit: "ms",
          value: round3(p50),
          n: REQUESTS,
          p50_ms: round3(p50),
          p95_ms: round3(p95),
          rss_mb: rssMb(),
          goal_p95_ms: 50,
          response_kb: Math.round(superjson.stringify(first).length / 1024),
        };
      }),
  },
];
export default benchmarks;
