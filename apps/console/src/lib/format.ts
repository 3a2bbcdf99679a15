/**
 * Numbers with units, the way operators read them. Amounts and units come
 * from `@peloton/engine/format`, the one formatter the CLI uses too (its
 * comment says why memory reads MB/GB/TB in steps of 1024); the console's
 * names for them stay so its components need not change.
 */
import type { ResourceKind } from "@peloton/engine";

export {
  formatBytes,
  formatInputAmount as formatInputUnit,
  formatMegabytes as formatMb,
  formatResource,
  formatResourcePair,
} from "@peloton/engine/format";

export type Kind = ResourceKind;

export const KIND_LABEL: Record<Kind, string> = {
  cpu: "CPU",
  gpu: "GPU",
  memory: "Memory",
  disk: "Disk",
};

export function formatCount(n: number): string {
  return new Intl.NumberFormat("en-US").format(n);
}

/** A kind a pool may not use at all: nothing reserved, limit 0, nothing held or asked for. */
export function isUnusedKind(n: {
  reservation: number;
  limit: number;
  entitlement: number;
  allocation: number;
  demand: number;
}): boolean {
  return (
    n.limit === 0 &&
    n.reservation === 0 &&
    n.entitlement === 0 &&
    n.allocation === 0 &&
    n.demand === 0
  );
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, (part / whole) * 100) : 0;
}

/** A run time or wait, exact below an hour: "45 s", "3 min 20 s", "2 h 5 min" (engine/format). */
export { formatElapsed as formatDuration } from "@peloton/engine/format";
