/** Pool helpers the pool pages share: display order of kinds, tree rows, field labels. */
import type { PoolRow } from "./api-types";
import { formatResource, KIND_LABEL, type Kind } from "./format";

export { poolHref } from "@peloton/api/schemas";

/** The order the console shows kinds in: the ones people look at first. */
export const DISPLAY_KINDS: readonly Kind[] = ["cpu", "memory", "gpu", "disk"];

export interface PoolTreeRow extends PoolRow {
  subRows: PoolTreeRow[];
}

/** The flat list (parents before children) as nested rows for the tree table. */
export function nestPools(pools: readonly PoolRow[]): PoolTreeRow[] {
  const byPath = new Map<string, PoolTreeRow>();
  const roots: PoolTreeRow[] = [];
  for (const p of pools) {
    const row: PoolTreeRow = { ...p, subRows: [] };
    byPath.set(p.path, row);
    const parent = byPath.get(p.parentPath);
    if (parent) parent.subRows.push(row);
    else roots.push(row);
  }
  return roots;
}

/** The path from the root to a pool, for breadcrumbs: `/a/b` → ["/a", "/a/b"]. */
export function ancestorPaths(path: string): string[] {
  const parts = path.split("/").filter(Boolean);
  return parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`);
}

const SETTING_LABELS: Record<string, string> = {
  owningTeam: "Owning team",
  ldapGroups: "LDAP groups",
  description: "Description",
  policy: "Scheduling policy",
  "controllerLimit.maxPercent": "Controller limit (%)",
  "slackLimit.maxPercent": "Slack limit (%)",
};

/** `resources.cpu.reservation` → "CPU reservation". */
export function settingLabel(field: string): string {
  const m = /^resources\.(\w+)\.(\w+)$/.exec(field);
  if (m) return `${KIND_LABEL[m[1] as Kind] ?? m[1]} ${m[2]}`;
  return SETTING_LABELS[field] ?? field;
}

/** A setting's value with its unit where it has one. */
export function settingValue(field: string, value: unknown): string {
  const m = /^resources\.(\w+)\.(reservation|limit)$/.exec(field);
  if (m && typeof value === "number") return formatResource(m[1] as Kind, value);
  if (field === "policy") return value === 1 ? "priority FIFO" : String(value);
  if (Array.isArray(value)) return value.length ? value.join(", ") : "(none)";
  return String(value);
}
