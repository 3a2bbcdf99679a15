/** preferIndexProbes: a keyed batch of task rows probes the primary key instead of hashing the table. */
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../src/client.ts";
import { preferIndexProbes } from "../src/planner.ts";
import "@peloton/test-support/storage/provided-context.ts";

const db = createDb(inject("databaseUrl"), { max: 1 });
afterAll(() => db.$disconnect());

describe("preferIndexProbes", () => {
  it("turns a 500-row keyed UPDATE of a 50,000-row table from hashing the table into primary-key probes", async () => {
    await db.$transaction(
      async (tx) => {
        // The tasks table's columns and indexes, of the transaction's own, gone at its end.
        await tx.$executeRaw`
          CREATE TEMP TABLE plan_probe (LIKE tasks INCLUDING DEFAULTS INCLUDING INDEXES)
          ON COMMIT DROP`;
        await tx.$executeRaw`
          INSERT INTO plan_probe (id, job_id, instance_id, state, run_id, updated_at)
          SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', i, 'LAUNCHED', 1, now()
          FROM generate_series(1, 50000) AS i`;
        await tx.$executeRaw`ANALYZE plan_probe`;
        const ids = (
          await tx.$queryRaw<{ id: string }[]>`
            SELECT id::text AS id FROM plan_probe ORDER BY random() LIMIT 500`
        ).map((r) => r.id);
        // The task writer's statement, in small: rows given as arrays, joined by primary key.
        const plan = async () =>
          (
            await tx.$queryRaw<{ "QUERY PLAN": string }[]>`
              EXPLAIN (COSTS OFF)
              UPDATE plan_probe t SET state = 'RUNNING'
              FROM unnest(${ids}::uuid[], ${ids.map(() => "LAUNCHED")}::"TaskState"[], ${ids.map(() => 1)}::int[])
                AS u(id, expect_state, expect_run)
              WHERE t.id = u.id AND t.state = u.expect_state AND t.run_id = u.expect_run`
          )
            .map((r) => r["QUERY PLAN"])
            .join("\n");
        await tx.$executeRaw`SET LOCAL random_page_cost = 4`; // PostgreSQL's default
        expect(await plan()).toMatch(/Hash Join[\s\S]*Seq Scan on plan_probe/);
        await preferIndexProbes(tx);
        expect(await plan()).toMatch(/Nested Loop[\s\S]*Index Scan using plan_probe_pkey/);
      },
      { timeout: 30_000 },
    );
  });
});
