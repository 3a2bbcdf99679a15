/**
 * `npm run bench -- entitlement`: one full calculation (input check, usage
 * aggregation, the three phases, the revocable pass) on random trees of 1,000
 * and 10,000 pools, four kinds, demand on the leaves (benchmarks.md goals:
 * < 5 ms and < 50 ms). Beside the headline: the same with every pool
 * explained, and the calculation alone on a pre-compiled tree.
 */

import { randomPools } from "@peloton/test-support/engine/random-pools.ts";
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
import { calculateEntitlement, compilePools, computeEntitlement } from "../src/index.ts";

function entitlementBench(count: number, rounds: number, goalMs: number): Benchmark {
  const name = `entitlement.pools_${count}`;
  return {
    name,
    run: async (): Promise<BenchResult> => {
      const input = randomPools(seededRandom(0x9e3779b9 ^ count), count);
      const check = calculateEntitlement(input);
      if (!check.ok) throw new Error(`bad bench input: ${check.error.code}`);
      const compiled = compilePools(input.pools);
      if (!compiled.ok) throw new Error("bad bench input");

      const times = await timeRounds(() => calculateEntitlement(input), { warmup: 5, rounds });
      const explained = await timeRounds(() => calculateEntitlement(input, { explain: true }), {
        warmup: 3,
        rounds,
      });
      const computeOnly = await timeRounds(
        () => computeEntitlement(compiled.pools, input.pools, input),
        { warmup: 3, rounds },
      );
      const p50 = median(times);
      log(
        `${name}: p50 ${p50.toFixed(3)} ms (goal < ${goalMs} ms), explained ${median(explained).toFixed(3)} ms`,
      );
      return {
        bench: name,
        unit: "ms",
        value: round3(p50),
        n: count,
        p50_ms: round3(p50),
        p95_ms: round3(percentile(times, 95)),
        rss_mb: rssMb(),
        goal_ms: goalMs,
        explain_all_p50_ms: round3(median(explained)),
        precompiled_p50_ms: round3(median(computeOnly)),
      };
    },
  };
}

const benchmarks: Benchmark[] = [entitlementBench(1000, 41, 5), entitlementBench(10_000, 21, 50)];
export default benchmarks;
