/**
 * The leader's compaction of `task_usage`: every statement that writes tasks
 * adds a row per key it changed (schema.prisma's TaskUsage), and this folds
 * each key's rows into one on a period, so the pool usage reads sum a few
 * rows per job whatever the cluster did since. A busy cluster adds a few
 * hundred rows a second; an idle one gives it nothing to do.
 */
import type { StorageGateway } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop } from "../common/loop.ts";

export interface TaskUsageCompactionOptions {
  gateway: StorageGateway;
  log: Logger;
  /** Default 10 s. */
  periodMs?: number;
}

export function taskUsageCompaction(opts: TaskUsageCompactionOptions): PeriodicLoop {
  return new PeriodicLoop({
    name: "task-usage-compaction",
    periodMs: opts.periodMs ?? 10_000,
    log: opts.log,
    tick: async () => {
      const removed = await opts.gateway.taskUsage.compact();
      if (removed > 0) opts.log.debug({ removed }, `task usage: folded away ${removed} rows`);
    },
  });
}
