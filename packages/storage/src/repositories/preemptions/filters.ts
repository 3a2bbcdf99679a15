/**
 * The WHERE clause every preemption read shares (list, export, counts), the
 * pool keys it probes, and the keyset cursor on (at, id).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import type { PoolSide, PreemptionFilters } from "./types.ts";

const ROOT = "/";

/** A path and each of its ancestors below the root: "/a/b" → ["/a", "/a/b"]. */
export function lineageOf(path: string): string[] {
  const segments = path.split("/").filter((s) => s.length > 0);
  return segments.map((_, i) => `/${segments.slice(0, i + 1).join("/")}`);
}

/**
 * `pool_keys` of a row: "victim:<p>" for the victim's pool and its
 * ancestors, "beneficiary:<p>" likewise for each pool it was for, so "in or
 * under this pool, on this side" is one containment probe of the GIN index.
 */
export function poolKeysOf(victimPool: string, beneficiaryPools: readonly string[]): string[] {
  const keys = lineageOf(victimPool).map((p) => `victim:${p}`);
  const beneficiary = new Set(beneficiaryPools.flatMap(lineageOf));
  for (const p of beneficiary) keys.push(`beneficiary:${p}`);
  return keys;
}

/** This very pool on a side: the victim's column, or any pool the preemption was for (GIN). */
const ON_SIDE: Record<Exclude<PoolSide, "either">, (path: string) => Prisma.Sql> = {
  victim: (path) => Prisma.sql`p.victim_pool_path = ${path}`,
  beneficiary: (path) => Prisma.sql`p.beneficiary_pool_paths @> ARRAY[${path}]::text[]`,
};

function poolCondition(pool: NonNullable<PreemptionFilters["pool"]>): Prisma.Sql {
  const sides: Exclude<PoolSide, "either">[] =
    pool.side === "either" ? ["victim", "beneficiary"] : [pool.side];
  if (pool.subtree) {
    // Everything is under the root.
    if (pool.path === ROOT) return Prisma.sql`true`;
    const keys = sides.map((s) => `${s}:${pool.path}`);
    return Prisma.sql`p.pool_keys && ${keys}::text[]`;
  }
  return Prisma.sql`(${Prisma.join(
    sides.map((s) => ON_SIDE[s](pool.path)),
    " OR ",
  )})`;
}

/** The filters as SQL over `preemptions p`; `true` when there are none. */
export function preemptionWhere(f: PreemptionFilters): Prisma.Sql {
  const c: Prisma.Sql[] = [Prisma.sql`true`];
  if (f.pool) c.push(poolCondition(f.pool));
  if (f.jobId !== undefined) c.push(Prisma.sql`p.victim_job_id = ${f.jobId}::uuid`);
  if (f.instanceId !== undefined) c.push(Prisma.sql`p.victim_instance_id = ${f.instanceId}`);
  if (f.taskId !== undefined) c.push(Prisma.sql`p.victim_task_id = ${f.taskId}::uuid`);
  if (f.kind !== undefined) c.push(Prisma.sql`p.kind = ${f.kind}::"PreemptionKind"`);
  if (f.since !== undefined) c.push(Prisma.sql`p.at >= ${f.since}`);
  if (f.until !== undefined) c.push(Prisma.sql`p.at < ${f.until}`);
  return Prisma.join(c, " AND ");
}

/** The position after a row in newest-first order: "<ms since epoch>_<id>". */
export interface Keyset {
  at: Date;
  id: string;
}

export function encodeKeyset(k: Keyset): string {
  return `${k.at.getTime()}_${k.id}`;
}

/** Undefined for anything that is not a cursor this module wrote. */
export function decodeKeyset(cursor: string): Keyset | undefined {
  const m = /^(\d{1,15})_(\d{1,19})$/.exec(cursor);
  return m ? { at: new Date(Number(m[1])), id: m[2]! } : undefined;
}

export function afterKeyset(k: Keyset): Prisma.Sql {
  return Prisma.sql`(p.at, p.id) < (${k.at}::timestamptz, ${k.id}::bigint)`;
}
