/**
 * Amounts and their units as people read them: the one formatter of the CLI
 * and the console (`@peloton/engine/format`).
 *
 * Memory and disk are MB in the model (Peloton's `memLimitMb`, Mesos' `mem`
 * and `disk`) and are shown in steps of 1024: MB, GB, TB. The spelling is
 * MB/GB/TB rather than MiB/GiB/TiB on purpose: Mesos and Peloton call 2^20
 * bytes a MB, the job YAML's fields, the forms' inputs and every engine
 * message say MB, and one spelling everywhere reads better than MB inputs
 * beside MiB displays. Bytes (log sizes) follow the same rule: B, KB, MB, GB.
 *
 * Pure and dependency-free, so it is safe in the browser bundle.
 */
import type { ResourceKind } from "../resources/kinds.ts";

const formatters = new Map<number, Intl.NumberFormat>();

/** A number with thousands separators and at most `digits` decimals: "12,345.6". */
export function formatNumber(n: number, digits = 1): string {
  let f = formatters.get(digits);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { maximumFractionDigits: digits });
    formatters.set(digits, f);
  }
  return f.format(n);
}

const MB_STEPS = [
  [1024 * 1024, "TB"],
  [1024, "GB"],
  [1, "MB"],
] as const;

/** The unit an amount of MB is best read in, and its size in MB. */
function megabyteUnit(mb: number): readonly [number, string] {
  return MB_STEPS.find(([size]) => Math.abs(mb) >= size) ?? MB_STEPS[2];
}

/** MB in the largest unit that keeps it ≥ 1: "512 MB", "1.5 GB", "2 TB". */
export function formatMegabytes(mb: number, digits = 1): string {
  const [size, unit] = megabyteUnit(mb);
  return `${formatNumber(mb / size, digits)} ${unit}`;
}

/** Bytes (log sizes): "900 B", "64 KB", "2.5 MB". */
export function formatBytes(bytes: number): string {
  if (Math.abs(bytes) < 1024) return `${bytes} B`;
  if (Math.abs(bytes) < 1024 * 1024) return `${formatNumber(bytes / 1024)} KB`;
  return formatMegabytes(bytes / (1024 * 1024));
}

/** One amount of a kind: "2.5 cores", "1 GPU", "1.5 GB". */
export function formatResource(kind: ResourceKind, value: number): string {
  switch (kind) {
    case "cpu":
      return `${formatNumber(value, 2)} ${value === 1 ? "core" : "cores"}`;
    case "gpu":
      return `${formatNumber(value)} GPU${value === 1 ? "" : "s"}`;
    case "memory":
    case "disk":
      return formatMegabytes(value);
  }
}

/** Two amounts of one kind in the larger one's unit: "3 / 12.5 cores", "1.5 / 46.8 GB". */
export function formatResourcePair(kind: ResourceKind, a: number, b: number): string {
  switch (kind) {
    case "cpu":
      return `${formatNumber(a, 2)} / ${formatNumber(b, 2)} cores`;
    case "gpu":
      return `${formatNumber(a)} / ${formatNumber(b)} GPUs`;
    case "memory":
    case "disk": {
      const [size, unit] = megabyteUnit(Math.max(Math.abs(a), Math.abs(b)));
      return `${formatNumber(a / size)} / ${formatNumber(b / size)} ${unit}`;
    }
  }
}

/** The unit a form or a config file takes each kind in. */
export const INPUT_UNITS: Readonly<Record<ResourceKind, string>> = {
  cpu: "cores",
  gpu: "devices",
  memory: "MB",
  disk: "MB",
};

/** An amount in its input unit, memory and disk also in the larger unit: "2,048 MB (2 GB)". */
export function formatInputAmount(kind: ResourceKind, value: number): string {
  if (kind === "memory" || kind === "disk") {
    const mb = `${formatNumber(value, 0)} MB`;
    return Math.abs(value) >= 1024 ? `${mb} (${formatMegabytes(value)})` : mb;
  }
  return formatResource(kind, value);
}

/**
 * A length of time, exact to the second below an hour: "42 s", "3 min 20 s",
 * "2 h 5 min", "3 d 4 h". Never rounded up to a larger unit ("1m" for 42 s
 * misleads on-call about how long a task was gone).
 */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

// Typed amounts of memory and disk, in a unit chosen per field.
export * from "./megabytes-input.ts";
