import { KIND_UNITS, RESOURCE_KINDS, type ResourceKind } from "./kinds.ts";
import type { Resources } from "./resources.ts";

/** A number for people: integers as they are, others to at most 2 decimals. */
export function formatAmount(n: number): string {
  if (Number.isInteger(n)) return String(n);
  if (!Number.isFinite(n)) return String(n);
  const fixed = n.toFixed(2).replace(/\.?0+$/, "");
  return fixed === "-0" ? "0" : fixed;
}

/** "40 cpu", "100 MB memory". */
export function formatKindAmount(n: number, kind: ResourceKind): string {
  return `${formatAmount(n)} ${KIND_UNITS[kind]}`;
}

/** The non-zero kinds, e.g. "10 cpu, 200 MB memory"; "nothing" when all are zero. */
export function formatResources(r: Resources): string {
  const parts = RESOURCE_KINDS.filter((k) => r[k] !== 0).map((k) => formatKindAmount(r[k], k));
  return parts.length > 0 ? parts.join(", ") : "nothing";
}
