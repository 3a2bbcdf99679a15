/**
 * Preemptions per pool over time (console.md: "with preemption counts per
 * pool over time", kept forever), counted on each side: out of a pool (its
 * task was the victim of an inter-pool preemption), into it (it was one of
 * the pools the preemption was for), within it (intra-pool).
 *
 * Buckets of whole days or hours read `preemption_counts` (recordMany keeps
 * a count per pool, side, hour and day): a year of history is a few rows
 * per pool and day, not every preemption. Shorter buckets, and filters the
 * counts do not keep (job, task), count the rows themselves, which those
 * filters keep few.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import type { DbOrTx } from "../../tx.ts";
import { escapeLike } from "../like.ts";
import { preemptionWhere } from "./filters.ts";
import type { PreemptionCountRow, PreemptionFilters } from "./types.ts";

type Side = "out" | "in" | "within";
interface CountRow {
  bucket: Date;
  pool: string | null;
  side: Side;
  n: number;
}

/** The periods recordMany counts in, longest last: a day and an hour. */
export const COUNT_PERIODS = [3600, 86400] as const;

/** The pool itself, or it and every pool below it (under the root: everywhere). */
function poolMatch(pool: PreemptionFilters["pool"], column: Prisma.Sql): Prisma.Sql {
  if (!pool || (pool.subtree && pool.path === "/")) return Prisma.sql`true`;
  if (!pool.subtree) return Prisma.sql`${column} = ${pool.path}`;
  return Prisma.sql`(${column} = ${pool.path} OR ${column} LIKE ${`${escapeLike(pool.path)}/%`})`;
}

const bucketOf = (column: Prisma.Sql, seconds: number) =>
  Prisma.sql`to_timestamp(floor(extract(epoch FROM ${column}) / ${seconds}) * ${seconds})`;

/** (bucket, pool, side, n) from the per-period counts. */
function fromCounts(f: PreemptionFilters, seconds: number, period: number): Prisma.Sql {
  const c: Prisma.Sql[] = [
    Prisma.sql`c.period_seconds = ${period}`,
    poolMatch(f.pool, Prisma.sql`c.pool`),
  ];
  if (f.kind === "INTER_POOL") c.push(Prisma.sql`c.side <> 'within'`);
  if (f.kind === "INTRA_POOL") c.push(Prisma.sql`c.side = 'within'`);
  // A period counts whole: a range starting inside it includes the period's earlier ones.
  if (f.since) c.push(Prisma.sql`c.start > ${new Date(f.since.getTime() - period * 1000)}`);
  if (f.until) c.push(Prisma.sql`c.start < ${f.until}`);
  return Prisma.sql`
    SELECT ${bucketOf(Prisma.sql`c.start`, seconds)} AS bucket, c.pool, c.side, sum(c.n) AS n
    FROM preemption_counts c WHERE ${Prisma.join(c, " AND ")}
    GROUP BY 1, 2, 3`;
}

/** (bucket, pool, side, n) counted from the rows. */
function fromRows(f: PreemptionFilters, seconds: number): Prisma.Sql {
  // The rows of the pool on either side, then each side's pool matched on its own.
  const rows = f.pool ? { ...f, pool: { ...f.pool, side: "either" as const } } : f;
  return Prisma.sql`
    WITH f AS (
      SELECT p.at, p.kind, p.victim_pool_path, p.beneficiary_pool_paths FROM preemptions p
      WHERE ${preemptionWhere(rows)}
    ),
    s AS (
      SELECT at, victim_pool_path AS pool,
             CASE WHEN kind = 'INTRA_POOL' THEN 'within' ELSE 'out' END AS side
      FROM f
      UNION ALL
      SELECT at, unnest(beneficiary_pool_paths), 'in' FROM f
      WHERE kind = 'INTER_POOL'
    )
    SELECT ${bucketOf(Prisma.sql`s.at`, seconds)} AS bucket, s.pool, s.side, count(*) AS n
    FROM s WHERE ${poolMatch(f.pool, Prisma.sql`s.pool`)}
    GROUP BY 1, 2, 3`;
}

export function preemptionCounts(db: DbOrTx) {
  return {
    /**
     * Counts per pool and bucket of `bucketSeconds` (aligned to the epoch).
     * With a pool filter, only that pool's counts (and its descendants' with
     * `subtree`), whichever side it was on; the other filters as in `list`.
     * With `topPools`, the busiest pools (by their counts in the range) keep
     * their names and the rest are summed under `pool: null`, so a chart of
     * a large cluster reads a few series, not one per pool.
     */
    async countsByPool(
      filters: PreemptionFilters,
      bucketSeconds: number,
      opts: { topPools?: number } = {},
    ): Promise<PreemptionCountRow[]> {
      const counted =
        filters.jobId === undefined &&
        filters.instanceId === undefined &&
        filters.taskId === undefined;
      // The longest counted period that divides the bucket.
      const period = counted
        ? [...COUNT_PERIODS].reverse().find((p) => bucketSeconds % p === 0)
        : undefined;
      const counts = period
        ? fromCounts(filters, bucketSeconds, period)
        : fromRows(filters, bucketSeconds);
      const named =
        opts.topPools === undefined
          ? Prisma.sql`r.pool`
          : Prisma.sql`CASE WHEN r.pool IN (
              SELECT pool FROM r GROUP BY pool ORDER BY sum(n) DESC, pool LIMIT ${opts.topPools}
            ) THEN r.pool END`;
      const rows = await db.$queryRaw<CountRow[]>`
        WITH r AS (${counts})
        SELECT r.bucket, ${named} AS pool, r.side, sum(r.n)::int AS n
        FROM r GROUP BY 1, 2, 3 ORDER BY 1, 2 NULLS LAST`;
      const out: PreemptionCountRow[] = [];
      const byKey = new Map<string, PreemptionCountRow>();
      for (const r of rows) {
        const key = `${r.bucket.getTime()} ${r.pool ?? ""}`;
        let row = byKey.get(key);
        if (!row) {
          row = { bucket: r.bucket, pool: r.pool, out: 0, in: 0, within: 0 };
          byKey.set(key, row);
          out.push(row);
        }
        row[r.side] += r.n;
      }
      return out;
    },
  };
}
