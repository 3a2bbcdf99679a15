/** Numbers with units, the way operators read them. */

const nf = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const nf2 = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

export type Kind = "cpu" | "gpu" | "memory" | "disk";

export const KIND_LABEL: Record<Kind, string> = {
  cpu: "CPU",
  gpu: "GPU",
  memory: "Memory",
  disk: "Disk",
};

export function formatCount(n: number): string {
  return new Intl.NumberFormat("en-US").format(n);
}

/** cpu in cores, memory and disk in MB (shown as GiB/TiB), gpu in devices. */
export function formatResource(kind: Kind, value: number): string {
  switch (kind) {
    case "cpu":
      return `${nf2.format(value)} ${value === 1 ? "core" : "cores"}`;
    case "gpu":
      return `${nf.format(value)} GPU${value === 1 ? "" : "s"}`;
    case "memory":
    case "disk":
      return formatMb(value);
  }
}

export function formatMb(mb: number): string {
  if (mb >= 1024 * 1024) return `${nf.format(mb / (1024 * 1024))} TiB`;
  if (mb >= 1024) return `${nf.format(mb / 1024)} GiB`;
  return `${nf.format(mb)} MB`;
}

/** An amount in the unit forms take (cores, GPUs, MB), memory and disk also in GiB for reading. */
export function formatInputUnit(kind: Kind, value: number): string {
  if (kind === "memory" || kind === "disk") {
    const mb = `${new Intl.NumberFormat("en-US").format(value)} MB`;
    return value >= 1024 ? `${mb} (${formatMb(value)})` : mb;
  }
  return formatResource(kind, value);
}

/** Two amounts of one kind in one unit, the larger one's: "3 / 12.5 cores", "1.5 / 46.8 GiB". */
export function formatResourcePair(kind: Kind, a: number, b: number): string {
  switch (kind) {
    case "cpu":
      return `${nf2.format(a)} / ${nf2.format(b)} cores`;
    case "gpu":
      return `${nf.format(a)} / ${nf.format(b)} GPUs`;
    case "memory":
    case "disk": {
      const top = Math.max(a, b);
      const [div, unit] =
        top >= 1024 * 1024 ? [1024 * 1024, "TiB"] : top >= 1024 ? [1024, "GiB"] : [1, "MB"];
      return `${nf.format(a / div)} / ${nf.format(b / div)} ${unit}`;
    }
  }
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

/** Bytes as people read them (log sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${nf.format(bytes / 1024)} KiB`;
  return `${nf.format(bytes / (1024 * 1024))} MiB`;
}
