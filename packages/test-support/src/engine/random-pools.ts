/**
 * Random pool trees from a seeded generator, for the benchmarks and the
 * cross-check tests: same seed, same tree. Demand and allocation on leaves.
 */
import type { EntitlementInput, EntitlementPoolInput, Resources } from "@peloton/engine";

export interface RandomPoolsOptions {
  /** Probability that a new pool hangs under the root (else under a random earlier pool). */
  readonly topLevel?: number;
  /** Allow share 0 and STATIC reservations. */
  readonly edgeCases?: boolean;
}

export function randomPools(
  random: () => number,
  count: number,
  opts: RandomPoolsOptions = {},
): EntitlementInput {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const topLevel = opts.topLevel ?? Math.min(0.2, 20 / count);
  const paths: string[] = [];
  const parentOf: number[] = [];
  const childCount = new Array<number>(count).fill(0);
  for (let i = 0; i < count; i++) {
    // A uniformly chosen earlier parent: a random recursive tree, depth about ln(count).
    const parent = i === 0 || random() < topLevel ? -1 : int(0, i - 1);
    parentOf.push(parent);
    if (parent >= 0) childCount[parent]!++;
    paths.push(`${parent < 0 ? "" : paths[parent]}/p${i}`);
  }
  const amount = (scale: number, zeroChance = 0.3) =>
    random() < zeroChance ? 0 : Math.round(random() * scale * 100) / 100;
  const pools: EntitlementPoolInput[] = paths.map((path, i) => {
    const kind = (scale: number) => {
      const reservation = amount(scale, 0.4);
      const share = opts.edgeCases && random() < 0.1 ? 0 : int(1, 5);
      const type = opts.edgeCases && random() < 0.1 ? ("STATIC" as const) : ("ELASTIC" as const);
      return { reservation, limit: reservation + amount(scale * 20, 0.05), share, type };
    };
    const leaf = childCount[i] === 0;
    const usage = (s: number): Partial<Resources> => ({
      cpu: amount(20 * s),
      gpu: amount(2 * s, 0.8),
      memory: amount(64_000 * s),
      disk: amount(200_000 * s),
    });
    return {
      path,
      resources: { cpu: kind(10), gpu: kind(1), memory: kind(32_000), disk: kind(100_000) },
      slackLimitMaxPercent: int(0, 4) * 10,
      ...(leaf
        ? {
            demand: usage(1),
            allocation: usage(1),
            slackDemand: random() < 0.3 ? usage(0.5) : undefined,
            slackAllocation: random() < 0.2 ? { cpu: amount(5) } : undefined,
          }
        : {}),
    };
  });
  return {
    capacity: {
      cpu: count * 8,
      gpu: Math.ceil(count / 4),
      memory: count * 32_000,
      disk: count * 100_000,
    },
    slackCapacity: { cpu: count * 2 },
    pools,
  };
}
