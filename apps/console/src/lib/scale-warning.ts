/**
 * Scaling a job beyond what its pool may ever hold (issue #19 item 5): the
 * instances past the pool's limit would wait PENDING for good, so the scale
 * dialog says so, in numbers, before it may be confirmed. Pure.
 */
import { z } from "zod";
import { formatCount, formatResource, type Kind as ResourceKind } from "./format";
import { DISPLAY_KINDS } from "./pools";

/** The part of a stored job config this reads: one instance's resources. */
const perInstanceSchema = z.object({
  defaultConfig: z
    .object({
      resource: z
        .object({
          cpuLimit: z.number().optional(),
          memLimitMb: z.number().optional(),
          diskLimitMb: z.number().optional(),
          gpuLimit: z.number().optional(),
        })
        .partial()
        .optional(),
    })
    .optional(),
});

export type Amounts = Record<ResourceKind, number>;

/** One instance's resources from the job's config (0 where it asks for none). */
export function perInstanceOf(config: unknown): Amounts {
  const r = perInstanceSchema.safeParse(config).data?.defaultConfig?.resource ?? {};
  return {
    cpu: r.cpuLimit ?? 0,
    memory: r.memLimitMb ?? 0,
    disk: r.diskLimitMb ?? 0,
    gpu: r.gpuLimit ?? 0,
  };
}

export interface ScaleWarning {
  readonly kind: ResourceKind;
  /** newCount × one instance's amount. */
  readonly needed: number;
  readonly limit: number;
  /** How many instances of this job the limit holds at most. */
  readonly fit: number;
  readonly words: string;
}

/**
 * The first kind in which `count` instances need more than the pool's
 * limit, with the words the dialog shows; null when the limit holds them.
 */
export function scaleWarning(
  count: number,
  perInstance: Amounts,
  limits: Amounts,
  poolPath: string,
): ScaleWarning | null {
  for (const kind of DISPLAY_KINDS) {
    const one = perInstance[kind];
    if (one <= 0) continue;
    const needed = count * one;
    const limit = limits[kind];
    if (needed <= limit) continue;
    const fit = Math.floor(limit / one);
    return {
      kind,
      needed,
      limit,
      fit,
      words:
        `${formatCount(count)} instances need ${formatResource(kind, needed)}, beyond ` +
        `${poolPath}'s limit of ${formatResource(kind, limit)}: at most ${formatCount(fit)} can ` +
        `run at once, the others wait PENDING until the limit is raised.`,
    };
  }
  return null;
}
