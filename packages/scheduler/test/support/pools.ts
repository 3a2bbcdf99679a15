/**
 * Builders for respool tests: stored pool records (as the storage gateway
 * hands them over) and snapshots of them, without a database.
 */
import type { PoolRecord, PoolUsage } from "@peloton/storage";
import { type PoolSnapshot, snapshotOf } from "../../src/resmgr/respool/snapshot.ts";

const AT = new Date("2026-01-01T00:00:00Z");
let seq = 0;

/** `record("/a/b", { cpu: [reservation, limit, share] })`; other kinds 0 / 0 / 1. */
export function record(
  path: string,
  kinds: Partial<Record<"cpu" | "gpu" | "memory" | "disk", [number, number, number]>> = {},
  parentId: string | null = null,
): PoolRecord {
  const kind = (k: "cpu" | "gpu" | "memory" | "disk") => {
    const [reservation, limit, share] = kinds[k] ?? [0, 0, 1];
    return { reservation, limit, share, type: "ELASTIC" as const };
  };
  seq++;
  return {
    id: `id${path}`,
    seq,
    parentId,
    path,
    name: path.split("/").pop() || "root",
    owningTeam: "team",
    ldapGroups: [],
    description: "",
    policy: 1,
    controllerLimitMaxPercent: null,
    slackLimitMaxPercent: 20,
    version: 1,
    createdBy: "test",
    createdAt: AT,
    updatedAt: AT,
    resources: { cpu: kind("cpu"), gpu: kind("gpu"), memory: kind("memory"), disk: kind("disk") },
  };
}

/** A tree from `[path, kinds]` pairs (parents first), under a stored root, with cpu capacity. */
export function snapshotFrom(
  pools: [string, Parameters<typeof record>[1]][],
  opts: {
    cpu?: number;
    usage?: Record<string, { [K in keyof Omit<PoolUsage, "poolId">]?: Partial<PoolUsage[K]> }>;
    jobs?: Record<string, number>;
  } = {},
): PoolSnapshot {
  const root = record("/");
  const records = [root];
  for (const [path, kinds] of pools) {
    const parent = path.slice(0, path.lastIndexOf("/")) || "/";
    records.push(record(path, kinds, records.find((r) => r.path === parent)!.id));
  }
  const zero = { cpu: 0, gpu: 0, memory: 0, disk: 0 };
  return snapshotOf({
    pools: records,
    capacity: { ...zero, cpu: opts.cpu ?? 100 },
    hosts: 1,
    usage: Object.entries(opts.usage ?? {}).map(([path, u]) => ({
      poolId: `id${path}`,
      demand: { ...zero, ...u.demand },
      allocation: { ...zero, ...u.allocation },
      slackDemand: { ...zero, ...u.slackDemand },
      slackAllocation: { ...zero, ...u.slackAllocation },
    })),
    jobs: new Map(Object.entries(opts.jobs ?? {}).map(([path, n]) => [`id${path}`, n])),
  });
}
