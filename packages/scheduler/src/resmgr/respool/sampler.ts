/**
 * The entitlement sampler: a leader loop that recomputes every pool's
 * entitlement on a period and soon after pools, tasks or hosts change, and
 * stores the samples the pool page charts (only what changed, plus every pool
 * now and then), dropping samples older than the retention.
 */
import type { ChangeListener, ChangeTopic, StorageGateway } from "@peloton/storage";
import type { Logger } from "../../common/logger.ts";
import { PeriodicLoop, type SchedulerLoop } from "../../common/loop.ts";
import { calculateSnapshot } from "./entitlements.ts";
import { SampleMemory, samplesOf } from "./samples.ts";
import { loadPoolSnapshot } from "./snapshot.ts";

export interface EntitlementSamplerOptions {
  readonly gateway: StorageGateway;
  /** Changes of these topics trigger a round: pools, tasks, hosts (throttled by `minIntervalMs`). */
  readonly changes?: Pick<ChangeListener, "subscribe">;
  readonly log: Logger;
  /** A round at least this often. Default 30 s. */
  readonly periodMs?: number;
  /** Change-triggered rounds at most this often. Default 5 s. */
  readonly minIntervalMs?: number;
  /** Every pool is stored at least this often, changed or not. Default 10 min. */
  readonly keepAliveMs?: number;
  /** Samples older than this are deleted. Default 7 days (the longest chart range). */
  readonly retentionMs?: number;
  readonly now?: () => Date;
}

export interface EntitlementSampler extends SchedulerLoop {
  /** One round now: what it stored and what retention removed. The loop's tick. */
  sample(): Promise<{ stored: number; removed: number }>;
}

const TRIGGERS: ReadonlySet<ChangeTopic> = new Set(["pools", "tasks", "hosts"]);
/** Retention deletes run at most this often: a delete per round would be wasted work. */
const RETENTION_EVERY_MS = 60 * 60 * 1000;

export function createEntitlementSampler(opts: EntitlementSamplerOptions): EntitlementSampler {
  const now = opts.now ?? (() => new Date());
  const minIntervalMs = opts.minIntervalMs ?? 5_000;
  const retentionMs = opts.retentionMs ?? 7 * 24 * 60 * 60 * 1000;
  const memory = new SampleMemory(opts.keepAliveMs ?? 10 * 60 * 1000);
  let lastRoundAt = 0;
  let lastRetentionAt = Number.NEGATIVE_INFINITY;
  let kickTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  async function sample(): Promise<{ stored: number; removed: number }> {
    const at = now();
    lastRoundAt = at.getTime();
    const snapshot = await loadPoolSnapshot(opts.gateway);
    const fresh = memory.select(samplesOf(snapshot, calculateSnapshot(snapshot), at));
    const stored = await opts.gateway.entitlementSamples.insertMany(fresh);
    memory.remember(fresh);
    let removed = 0;
    if (at.getTime() - lastRetentionAt >= RETENTION_EVERY_MS) {
      removed = await opts.gateway.entitlementSamples.deleteOlderThan(
        new Date(at.getTime() - retentionMs),
      );
      lastRetentionAt = at.getTime();
    }
    opts.log.debug({ stored, removed, pools: snapshot.records.length }, "entitlement samples");
    return { stored, removed };
  }

  const loop = new PeriodicLoop({
    name: "entitlement-sampler",
    periodMs: opts.periodMs ?? 30_000,
    log: opts.log,
    tick: async () => {
      await sample();
    },
  });

  /** A change kicks a round, but not more often than `minIntervalMs`. */
  function kickSoon(): void {
    if (kickTimer) return;
    const wait = Math.max(0, lastRoundAt + minIntervalMs - now().getTime());
    kickTimer = setTimeout(() => {
      kickTimer = undefined;
      loop.kick();
    }, wait);
  }

  return {
    name: loop.name,
    sample,
    start() {
      unsubscribe ??= opts.changes?.subscribe((change) => {
        if (!TRIGGERS.has(change.topic)) return;
        // A pool change stores its own samples; what this loop remembers is stale then.
        if (change.topic === "pools") memory.forget();
        kickSoon();
      });
      loop.start();
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      clearTimeout(kickTimer);
      kickTimer = undefined;
      await loop.stop();
    },
  };
}
