import type { ResourceKind } from "@peloton/engine";
import type { DbOrTx } from "../tx.ts";

export interface EntitlementSampleRecord {
  poolId: string;
  kind: ResourceKind;
  at: Date;
  entitlement: number;
  slackEntitlement: number;
  allocation: number;
  demand: number;
  reservation: number;
  limit: number;
}

/** A pool's samples over a time range, for a step chart. */
export interface SampleSeries {
  /** Per kind, the last sample before the range: the value the chart starts with. */
  previous: EntitlementSampleRecord[];
  /** Samples inside the range, oldest first; at most one per kind and bucket (its last). */
  samples: EntitlementSampleRecord[];
}

interface SampleRow {
  kind: ResourceKind;
  at: Date;
  entitlement: number;
  slack_entitlement: number;
  allocation: number;
  demand: number;
  reservation: number;
  limit: number;
}

const toRecord =
  (poolId: string) =>
  (r: SampleRow): EntitlementSampleRecord => ({
    poolId,
    kind: r.kind,
    at: r.at,
    entitlement: r.entitlement,
    slackEntitlement: r.slack_entitlement,
    allocation: r.allocation,
    demand: r.demand,
    reservation: r.reservation,
    limit: r.limit,
  });

/** The time series behind the pool page's chart. */
export function entitlementSamplesRepository(db: DbOrTx) {
  return {
    /** One multi-row insert for the whole batch. */
    async insertMany(samples: readonly EntitlementSampleRecord[]): Promise<number> {
      if (samples.length === 0) return 0;
      const { count } = await db.entitlementSample.createMany({ data: [...samples] });
      return count;
    },

    /**
     * Samples of one pool between two instants. Samples are stored when numbers
     * change (and now and then regardless), so each value holds until the next
     * sample: within a bucket the last sample is the one that holds at its end,
     * and the last one before `from` is where the range starts.
     */
    async series(
      poolId: string,
      range: { from: Date; to: Date; bucketMs: number },
    ): Promise<SampleSeries> {
      const bucketSeconds = Math.max(range.bucketMs, 1) / 1000;
      const [previous, samples] = await Promise.all([
        db.$queryRaw<SampleRow[]>`
          SELECT DISTINCT ON (kind) kind::text AS kind, at, entitlement, slack_entitlement,
                 allocation, demand, reservation, "limit"
          FROM entitlement_samples
          WHERE pool_id = ${poolId}::uuid AND at < ${range.from}
          ORDER BY kind, at DESC`,
        db.$queryRaw<SampleRow[]>`
          SELECT kind, at, entitlement, slack_entitlement, allocation, demand, reservation, "limit"
          FROM (
            SELECT DISTINCT ON (kind, bucket) kind::text AS kind, at, entitlement,
                   slack_entitlement, allocation, demand, reservation, "limit"
            FROM (
              SELECT *, date_bin(make_interval(secs => ${bucketSeconds}::float8), at,
                                 ${range.from}::timestamptz) AS bucket
              FROM entitlement_samples
              WHERE pool_id = ${poolId}::uuid AND at >= ${range.from} AND at <= ${range.to}
            ) binned
            ORDER BY kind, bucket, at DESC
          ) last_per_bucket
          ORDER BY at, kind`,
      ]);
      return { previous: previous.map(toRecord(poolId)), samples: samples.map(toRecord(poolId)) };
    },

    /** Retention: drop samples older than `before`. */
    async deleteOlderThan(before: Date): Promise<number> {
      const { count } = await db.entitlementSample.deleteMany({ where: { at: { lt: before } } });
      return count;
    },
  };
}
