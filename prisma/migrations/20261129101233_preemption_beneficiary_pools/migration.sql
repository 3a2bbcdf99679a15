-- Issue 19: a preemption counts for every pool it was for, not only the
-- closest (model Preemption, beneficiary_pool_paths). Rows recorded before
-- are filled in from their numbers below.

-- DropIndex
DROP INDEX "preemptions_beneficiary_pool_path_at_id_idx";

-- AlterTable
ALTER TABLE "preemptions" ADD COLUMN     "beneficiary_pool_paths" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "preemptions_beneficiary_pool_paths_idx" ON "preemptions" USING GIN ("beneficiary_pool_paths");

-- Backfill: inter-pool, the pools named in `numbers` in their order (closest
-- first); intra-pool, the one beneficiary column.
UPDATE "preemptions" p SET "beneficiary_pool_paths" = ARRAY(
  SELECT b.pool FROM (
    SELECT t.x->>'pool' AS pool, min(t.o) AS first
    FROM jsonb_array_elements(
      CASE WHEN p.kind = 'INTER_POOL' AND jsonb_typeof(p.numbers->'beneficiaries') = 'array'
           THEN p.numbers->'beneficiaries' ELSE '[]'::jsonb END
    ) WITH ORDINALITY AS t(x, o)
    GROUP BY 1
  ) b
  WHERE b.pool IS NOT NULL
  ORDER BY b.first
);
UPDATE "preemptions"
SET "beneficiary_pool_paths" =
  ARRAY["beneficiary_pool_path"] || array_remove("beneficiary_pool_paths", "beneficiary_pool_path")
WHERE "beneficiary_pool_path" IS NOT NULL;
ALTER TABLE "preemptions" ALTER COLUMN "beneficiary_pool_paths" SET NOT NULL;

-- pool_keys: "beneficiary:<p>" for each further pool and its ancestors (filters.ts).
UPDATE "preemptions" p SET "pool_keys" = ARRAY(
  SELECT k FROM unnest(p.pool_keys) AS k
  UNION
  SELECT 'beneficiary:/' || array_to_string(s.seg[1:i], '/')
  FROM unnest(p.beneficiary_pool_paths) AS bp(path)
  CROSS JOIN LATERAL (SELECT string_to_array(trim(BOTH '/' FROM bp.path), '/') AS seg) s
  CROSS JOIN LATERAL generate_series(1, cardinality(s.seg)) AS i
)
WHERE cardinality(p.beneficiary_pool_paths) > 1;

-- The per-period counts "into" each further pool (the closest was counted when recorded).
INSERT INTO "preemption_counts" ("period_seconds", "start", "pool", "side", "n")
SELECT d.period, to_timestamp(floor(extract(epoch FROM p.at) / d.period) * d.period), b.pool,
       'in', count(*)::int
FROM "preemptions" p
CROSS JOIN LATERAL unnest(p.beneficiary_pool_paths) AS b(pool)
CROSS JOIN (VALUES (3600), (86400)) AS d(period)
WHERE p.kind = 'INTER_POOL' AND b.pool IS DISTINCT FROM p.beneficiary_pool_path
GROUP BY 1, 2, 3
ON CONFLICT ("period_seconds", "start", "pool", "side")
DO UPDATE SET "n" = "preemption_counts"."n" + EXCLUDED."n";
