/**
 * `npm run bench -- admission`: one admission pass over 1,000 leaf pools with
 * 100,000 waiting gangs in all (about 105,000 tasks): queueing, the three
 * checks, and a reason for every gang left waiting. Goal < 50 ms (the
 * resource manager runs it on every scheduling cycle). Beside the headline:
 * the same with every waiting reason turned into its sentence, as a console
 * page listing them all would.
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
import { admit, describeAdmissionReason } from "../src/index.ts";
import { randomAdmission } from "./random-admission.ts";

function admissionBench(pools: number, gangsPerPool: number, goalMs: number): Benchmark {
  const gangs = pools * gangsPerPool;
  const name = `admission.pools_${pools}_gangs_${gangs / 1000}k`;
  return {
    name,
    run: async (): Promise<BenchResult> => {
      const input = randomAdmission(seededRandom(0x5eed ^ gangs), pools, gangsPerPool);
      const check = admit(input);
      const admitted = check.pools.reduce((n, p) => n + p.admitted.length, 0);
      const waiting = check.pools.reduce((n, p) => n + p.waiting.length, 0);
      if (admitted + waiting !== gangs || admitted === 0 || waiting === 0)
        throw new Error(`bad bench input: ${admitted} admitted, ${waiting} waiting`);

      const times = await timeRounds(() => admit(input), { warmup: 5, rounds: 31 });
      const described = await timeRounds(
        () => {
          const r = admit(input);
          let chars = 0;
          for (const p of r.pools)
            for (const w of p.waiting) chars += describeAdmissionReason(w.reason).length;
          return chars;
        },
        { warmup: 2, rounds: 11 },
      );
      const p50 = median(times);
      log(
        `${name}: p50 ${p50.toFixed(3)} ms (goal < ${goalMs} ms); ${admitted} admitted, ${waiting} waiting; with every reason described ${median(described).toFixed(1)} ms`,
      );
      return {
        bench: name,
        unit: "ms",
        value: round3(p50),
        n: gangs,
        p50_ms: round3(p50),
        p95_ms: round3(percentile(times, 95)),
        rss_mb: rssMb(),
        goal_ms: goalMs,
        admitted,
        waiting,
        described_all_p50_ms: round3(median(described)),
      };
    },
  };
}

const benchmarks: Benchmark[] = [admissionBench(1000, 100, 50)];
export default benchmarks;
