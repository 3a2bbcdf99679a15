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

/** A duration the way `peloton task list` reads it, shortened: "45s", "3m 20s", "2h 05m", "3d 4h". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
