/**
 * The benchmark contract (shared/design/benchmarks.md): each benchmark prints
 * exactly one JSON line on stdout; everything else goes to stderr.
 *
 * A benchmark module lives at `packages/<pkg>/bench/<name>.bench.ts` (or
 * `bench/<name>.bench.ts`) and default-exports a list of `Benchmark`s.
 */
export interface BenchResult {
  bench: string;
  unit: string;
  value: number;
  n: number;
  p50_ms: number | null;
  p95_ms: number | null;
  rss_mb: number;
  /** Reference figures measured in the same run, e.g. pg_copy_rows_per_s. */
  [extra: string]: string | number | null;
}

export interface Benchmark {
  name: string;
  run: () => Promise<BenchResult>;
}

export function rssMb(): number {
  return Math.round(process.memoryUsage().rss / (1024 * 1024));
}

/** Milliseconds to three decimals, as the JSON lines report them. */
export function round3(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

export function percentile(sortedAsc: readonly number[], p: number): number {
  if (sortedAsc.length === 0) return 0;
  const idx = Math.min(
    sortedAsc.length - 1,
    Math.max(0, Math.ceil((p / 100) * sortedAsc.length) - 1),
  );
  return sortedAsc[idx]!;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return percentile(sorted, 50);
}

/**
 * Warm up, then time `rounds` runs of `fn` and return each round's duration in
 * ms (sorted ascending). The caller reports the median round.
 */
export async function timeRounds(
  fn: () => unknown | Promise<unknown>,
  opts: { warmup?: number; rounds?: number } = {},
): Promise<number[]> {
  const warmup = opts.warmup ?? 2;
  const rounds = opts.rounds ?? 7;
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

/** Deterministic PRNG (mulberry32) so every run measures the same work. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function log(...args: unknown[]): void {
  console.error(...args);
}
