import { RESOURCE_KINDS, type ReservationType, type ResourceKind } from "@peloton/engine";
import type { Prisma } from "../generated/prisma/client.ts";
import type { PoolRecord, PoolResourceRecord } from "../records.ts";

export const poolSelect = {
  id: true,
  seq: true,
  parentId: true,
  path: true,
  name: true,
  owningTeam: true,
  ldapGroups: true,
  description: true,
  policy: true,
  controllerLimitMaxPercent: true,
  slackLimitMaxPercent: true,
  version: true,
  createdBy: true,
  createdAt: true,
  updatedAt: true,
  resources: { select: { kind: true, reservation: true, limit: true, share: true, type: true } },
} satisfies Prisma.ResourcePoolSelect;

type PoolRow = Prisma.ResourcePoolGetPayload<{ select: typeof poolSelect }>;

/** A kind the pool does not list: Peloton appends it with reservation 0, limit 0, share 1. */
export const ABSENT_RESOURCE: PoolResourceRecord = {
  reservation: 0,
  limit: 0,
  share: 1,
  type: "ELASTIC",
};

export function toPoolRecord(row: PoolRow): PoolRecord {
  const resources = {} as Record<ResourceKind, PoolResourceRecord>;
  for (const kind of RESOURCE_KINDS) resources[kind] = { ...ABSENT_RESOURCE };
  for (const r of row.resources) {
    resources[r.kind] = {
      reservation: r.reservation,
      limit: r.limit,
      share: r.share,
      type: r.type,
    };
  }
  return { ...row, resources };
}

/** A pool row as `listAll`'s plain query returns it (columns named as the record's fields). */
export type RawPoolRow = Omit<PoolRecord, "resources">;
export type RawResourceRow = PoolResourceRecord & { poolId: string; kind: ResourceKind };

/** Pools and their resource rows as records, kinds a pool does not list filled in. */
export function fromRawRows(
  pools: readonly RawPoolRow[],
  resources: readonly RawResourceRow[],
): PoolRecord[] {
  const byPool = new Map<string, RawResourceRow[]>();
  for (const r of resources) {
    const list = byPool.get(r.poolId);
    if (list) list.push(r);
    else byPool.set(r.poolId, [r]);
  }
  return pools.map((p) => toPoolRecord({ ...p, resources: byPool.get(p.id) ?? [] }));
}

/**
 * The JSON kept in pool_changes.before/after (and the audit log): the whole
 * pool as users see it. A type alias, not an interface, so that it is a JSON
 * object to Prisma.
 */
export type PoolSnapshotJson = {
  id: string;
  path: string;
  name: string;
  parentId: string | null;
  owningTeam: string;
  ldapGroups: string[];
  description: string;
  policy: number;
  controllerLimitMaxPercent: number | null;
  slackLimitMaxPercent: number;
  version: number;
  resources: Record<ResourceKind, ResourceJson>;
};

type ResourceJson = {
  reservation: number;
  limit: number;
  share: number;
  type: ReservationType;
};

export function poolSnapshot(p: PoolRecord): PoolSnapshotJson {
  return {
    id: p.id,
    path: p.path,
    name: p.name,
    parentId: p.parentId,
    owningTeam: p.owningTeam,
    ldapGroups: [...p.ldapGroups],
    description: p.description,
    policy: p.policy,
    controllerLimitMaxPercent: p.controllerLimitMaxPercent,
    slackLimitMaxPercent: p.slackLimitMaxPercent,
    version: p.version,
    resources: {
      cpu: { ...p.resources.cpu },
      gpu: { ...p.resources.gpu },
      memory: { ...p.resources.memory },
      disk: { ...p.resources.disk },
    },
  };
}
