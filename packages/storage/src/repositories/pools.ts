import { RESOURCE_KINDS } from "@peloton/engine";
import { NotFoundError, VersionConflictError } from "../errors.ts";
import type { NewPool, PoolPolicyFacts, PoolRecord, PoolUpdate } from "../records.ts";
import type { DbOrTx } from "../tx.ts";
import { changesRepository } from "./changes.ts";
import {
  ABSENT_RESOURCE,
  fromRawRows,
  poolSelect,
  poolSnapshot,
  type RawPoolRow,
  type RawResourceRow,
  toPoolRecord,
} from "./pool-mapping.ts";

/** Resource pools and their change history. */
export function poolsRepository(db: DbOrTx) {
  const announce = (path: string) =>
    changesRepository(db).announce({ topic: "pools", keys: [path] });
  async function getByPath(path: string): Promise<PoolRecord | null> {
    const row = await db.resourcePool.findUnique({ where: { path }, select: poolSelect });
    return row ? toPoolRecord(row) : null;
  }

  /**
   * Serialises changes of the pool tree: taken first in a pool-changing
   * transaction and held until it ends, so that each change is validated
   * against the tree exactly as the previous change left it (two edits of
   * sibling pools could otherwise each fit their parent alone, and not
   * together). Every write below takes it too, which makes change ids grow in
   * commit order (see `changeMark`). Taking it again in one transaction is free.
   */
  async function lockTree(): Promise<void> {
    await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('peloton.pool_tree'))`;
  }

  return {
    getByPath,
    lockTree,

    /** A pool's facts the policy decides from, in one small read; null without the pool. */
    async facts(path: string): Promise<PoolPolicyFacts | null> {
      return db.resourcePool.findUnique({
        where: { path },
        select: { path: true, owningTeam: true, ldapGroups: true },
      });
    },

    /**
     * Names the pool tree as committed now: it changes with every committed
     * pool change. Pool writes hold the tree lock, so change ids grow in commit
     * order, and a reader that reads the mark first and the pools after sees
     * every change up to the mark: pools read under an unchanged mark can be
     * reused. (The time is in the mark for databases whose ids were reset.)
     */
    async changeMark(): Promise<string> {
      const [row] = await db.$queryRaw<{ mark: string }[]>`
        SELECT id::text || '@' || at::text AS mark FROM pool_changes ORDER BY id DESC LIMIT 1`;
      return row?.mark ?? "none";
    },

    /**
     * Every pool in creation order (parents always before their children).
     * Two plain queries rather than the ORM's nested select: this read is on
     * the hot path of every tree view and entitlement round (half the time).
     */
    async listAll(): Promise<PoolRecord[]> {
      const [pools, resources] = await Promise.all([
        db.$queryRaw<RawPoolRow[]>`
          SELECT id::text, seq, parent_id::text AS "parentId", path, name,
                 owning_team AS "owningTeam", ldap_groups AS "ldapGroups", description, policy,
                 controller_limit_max_percent AS "controllerLimitMaxPercent",
                 slack_limit_max_percent AS "slackLimitMaxPercent", version,
                 created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"
          FROM resource_pools ORDER BY seq`,
        db.$queryRaw<RawResourceRow[]>`
          SELECT pool_id::text AS "poolId", kind::text AS kind, reservation, "limit", share,
                 type::text AS type
          FROM pool_resources`,
      ]);
      return fromRawRows(pools, resources);
    },

    /** Pools whose path contains `text` (case-insensitive), shortest paths first. */
    async search(text: string, limit: number): Promise<PoolRecord[]> {
      const rows = await db.resourcePool.findMany({
        where: { path: { contains: text, mode: "insensitive" }, parentId: { not: null } },
        select: poolSelect,
        orderBy: [{ path: "asc" }],
        take: limit,
      });
      return rows.map(toPoolRecord);
    },

    async count(): Promise<number> {
      return db.resourcePool.count();
    },

    /**
     * Inserts a pool with its resources and its CREATE change row, and announces it. Callers
     * validate first (engine rules) and run this inside a transaction so the
     * pool and its history commit together.
     */
    async create(input: NewPool, actor: string): Promise<PoolRecord> {
      await lockTree();
      const row = await db.resourcePool.create({
        data: {
          parentId: input.parentId,
          path: input.path,
          name: input.name,
          owningTeam: input.owningTeam ?? "",
          ldapGroups: input.ldapGroups ?? [],
          description: input.description ?? "",
          policy: input.policy ?? 1,
          controllerLimitMaxPercent: input.controllerLimitMaxPercent ?? null,
          slackLimitMaxPercent: input.slackLimitMaxPercent ?? 20,
          createdBy: actor,
          resources: {
            create: RESOURCE_KINDS.filter((k) => input.resources[k]).map((kind) => ({
              kind,
              ...ABSENT_RESOURCE,
              ...input.resources[kind],
            })),
          },
        },
        select: poolSelect,
      });
      const pool = toPoolRecord(row);
      await db.poolChange.create({
        data: {
          poolId: pool.id,
          poolPath: pool.path,
          action: "CREATE",
          actor,
          version: pool.version,
          after: poolSnapshot(pool),
        },
      });
      await announce(pool.path);
      return pool;
    },

    /**
     * Applies `patch` if the pool is still at `expectedVersion` (optimistic
     * concurrency: of two edits of one version, exactly one wins), bumps the
     * version and writes the UPDATE change row. Run inside a transaction.
     */
    async update(
      path: string,
      expectedVersion: number,
      patch: PoolUpdate,
      actor: string,
    ): Promise<PoolRecord> {
      await lockTree();
      const before = await getByPath(path);
      if (!before) throw new NotFoundError("pool", path);
      const { count } = await db.resourcePool.updateMany({
        where: { id: before.id, version: expectedVersion },
        data: {
          version: { increment: 1 },
          ...(patch.owningTeam !== undefined ? { owningTeam: patch.owningTeam } : {}),
          ...(patch.ldapGroups !== undefined ? { ldapGroups: patch.ldapGroups } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.policy !== undefined ? { policy: patch.policy } : {}),
          ...(patch.controllerLimitMaxPercent !== undefined
            ? { controllerLimitMaxPercent: patch.controllerLimitMaxPercent }
            : {}),
          ...(patch.slackLimitMaxPercent !== undefined
            ? { slackLimitMaxPercent: patch.slackLimitMaxPercent }
            : {}),
        },
      });
      if (count === 0)
        throw new VersionConflictError("pool", path, expectedVersion, before.version);
      if (patch.resources) {
        for (const kind of RESOURCE_KINDS) {
          const r = patch.resources[kind];
          if (!r) continue;
          const value = { ...before.resources[kind], ...r };
          await db.poolResource.upsert({
            where: { poolId_kind: { poolId: before.id, kind } },
            create: { poolId: before.id, kind, ...value },
            update: value,
          });
        }
      }
      const after = (await getByPath(path))!;
      await db.poolChange.create({
        data: {
          poolId: after.id,
          poolPath: after.path,
          action: "UPDATE",
          actor,
          version: after.version,
          before: poolSnapshot(before),
          after: poolSnapshot(after),
        },
      });
      await announce(after.path);
      return after;
    },

    /**
     * Deletes the pool if it is still at `expectedVersion`, writing the DELETE
     * change row. Callers check the engine's rule (an empty leaf) first; the
     * foreign keys refuse a pool that still has children or jobs regardless.
     */
    async delete(path: string, expectedVersion: number, actor: string): Promise<PoolRecord> {
      await lockTree();
      const before = await getByPath(path);
      if (!before) throw new NotFoundError("pool", path);
      const { count } = await db.resourcePool.deleteMany({
        where: { id: before.id, version: expectedVersion },
      });
      if (count === 0)
        throw new VersionConflictError("pool", path, expectedVersion, before.version);
      await db.poolChange.create({
        data: {
          poolId: before.id,
          poolPath: before.path,
          action: "DELETE",
          actor,
          version: before.version,
          before: poolSnapshot(before),
        },
      });
      await announce(before.path);
      return before;
    },

    /** Number of jobs per pool id (a pool with jobs cannot be deleted; jobs go to leaves only). */
    async jobCounts(): Promise<Map<string, number>> {
      const groups = await db.job.groupBy({
        by: ["poolId"],
        where: { state: { notIn: ["DELETED"] } },
        _count: { _all: true },
      });
      return new Map(groups.map((g) => [g.poolId, g._count._all]));
    },
  };
}

export type PoolsRepository = ReturnType<typeof poolsRepository>;
