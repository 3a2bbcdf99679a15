/**
 * `npm run bench -- preemption`: one preemption cycle over 1,000 leaf pools
 * and 100,000 tasks (benchmarks.md goal: < 20 ms), all checked and gathered.
 * A fifth of the pools are over their entitlement and due this period, so the
 * cycle ranks and walks their candidates; gangs wait in a fifth of the others
 * (intra-pool). The victim counts are printed beside the time.
 */
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
import { decidePreemptions } from "../src/index.ts";
import { randomPreemption } from "./random-preemption.ts";

const GOAL_MS = 20;

function preemptionBench(pools: number, tasks: number): Benchmark {
  const name = `preemption.pools_${pools}_tasks_${tasks / 1000}k`;
  return {
    name,
    run: async (): Promise<BenchResult> => {
      const input = randomPreemption(seededRandom(0x7e3 ^ pools), { pools, tasks });
      const check = decidePreemptions(input);
      if (!check.ok) throw new Error(`bad bench input: ${check.errors[0]?.code}`);
      const times = await timeRounds(() => decidePreemptions(input), { warmup: 5, rounds: 31 });
      const p50 = median(times);
      const intra = check.decisions.filter((d) => d.kind === "INTRA_POOL").length;
      log(
        `${name}: ${check.pools.length} pools due, ${check.decisions.length} victims ` +
          `(${intra} intra-pool); p50 ${p50.toFixed(2)} ms (goal < ${GOAL_MS} ms)`,
      );
      return {
        bench: name,
        unit: "ms",
        value: round3(p50),
        n: tasks,
        p50_ms: round3(p50),
        p95_ms: round3(percentile(times, 95)),
        rss_mb: rssMb(),
        goal_ms: GOAL_MS,
        pools_due: check.pools.length,
        victims: check.decisions.length,
        intra_pool_victims: intra,
      };
    },
  };
}

const benchmarks: Benchmark[] = [preemptionBench(1000, 100_000)];
export default benchmarks;
