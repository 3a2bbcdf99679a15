/**
 * `npm run bench -- placement`: 100,000 tasks on 10,000 hosts in one batch
 * (benchmarks.md goal: ≥ 50,000 placements/s on one core). Seeded hosts with
 * zones, racks, GPUs, draining/down/exclusive hosts; tasks in jobs of mixed
 * sizes, pack and spread, some constraints, ports and gangs. The headline
 * uses the default `hostsToScore`; the figure with 100 hosts scored is beside it.
 */
import {
  type Benchmark,
  type BenchResult,
  log,
  median,
  percentile,
  rssMb,
  seededRandom,
  timeRounds,
} from "../../../bench/harness.ts";
import { DEFAULT_HOSTS_TO_SCORE, placeTasks } from "../src/index.ts";
import { randomCluster } from "./random-cluster.ts";

const GOAL = 50_000;

function placementBench(tasks: number, hosts: number): Benchmark {
  const name = `placement.tasks_${tasks / 1000}k_hosts_${hosts / 1000}k`;
  return {
    name,
    run: async (): Promise<BenchResult> => {
      const cluster = randomCluster(seededRandom(0x5eed ^ hosts), { hosts, tasks });
      const check = placeTasks(cluster.hosts, cluster.tasks);
      if (!check.ok) throw new Error(`bad bench input: ${check.errors[0]?.code}`);
      const placed = check.placements.length;
      const times = await timeRounds(() => placeTasks(cluster.hosts, cluster.tasks), {
        warmup: 1,
        rounds: 5,
      });
      const p50 = median(times);
      const perSecond = Math.round((placed / p50) * 1000);
      // Beside the headline: twice the hosts scored per task, for comparison.
      const wider = median(
        await timeRounds(() => placeTasks(cluster.hosts, cluster.tasks, { hostsToScore: 100 }), {
          warmup: 0,
          rounds: 3,
        }),
      );
      log(
        `${name}: ${placed} placed, ${check.unplaced.length} not (no host fits or gang incomplete); ` +
          `p50 ${p50.toFixed(0)} ms → ${perSecond} placements/s (goal ≥ ${GOAL})`,
      );
      return {
        bench: name,
        unit: "placements/s",
        value: perSecond,
        n: tasks,
        p50_ms: null,
        p95_ms: null,
        rss_mb: rssMb(),
        goal: GOAL,
        hosts,
        placed,
        unplaced: check.unplaced.length,
        batch_p50_ms: Math.round(p50),
        batch_p95_ms: Math.round(percentile(times, 95)),
        hosts_to_score: DEFAULT_HOSTS_TO_SCORE,
        placements_per_s_scoring_100: Math.round((placed / wider) * 1000),
      };
    },
  };
}

const benchmarks: Benchmark[] = [placementBench(100_000, 10_000)];
export default benchmarks;
