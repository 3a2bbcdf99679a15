import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../src/client.ts";
import { directRows } from "../src/direct-rows.ts";
import { Prisma } from "../src/generated/prisma/client.ts";
import "@peloton/test-support/storage/provided-context.ts";

const db = createDb(inject("databaseUrl"), { max: 2 });
afterAll(() => db.$disconnect());

/** One row of every type directRows reads, and a row of nulls, with parameters of each kind. */
const EVERY_TYPE = Prisma.sql`
  SELECT * FROM (VALUES
    (true, 2::int2, ${41}::int4 + 1, 9007199254740993::int8, 1.5::float4, ${0.1}::float8,
     ${"ünïcødé ✓"}::text, 'v'::varchar, '{"a":[1,{"b":null}]}'::json, ${'{"http":31000}'}::jsonb,
     ${new Date("2026-11-29T09:52:09.123Z")}::timestamptz,
     '2026-11-29 09:52:09.123456+05:30'::timestamptz, 'infinity'::timestamptz),
    (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
  ) AS v(b, i2, i4, i8, f4, f8, t, vc, j, jb, ts, ts_us, ts_inf)
  WHERE ${[1, 2]}::int[] IS NOT NULL`;

describe("directRows", () => {
  it("gives the values $queryRaw gives, outside and inside a transaction", async () => {
    const expected = await db.$queryRaw<Record<string, unknown>[]>(EVERY_TYPE);
    expect(expected).toHaveLength(2);
    expect(expected[0]?.i8).toBe(9007199254740993n);
    const direct = await directRows<Record<string, unknown>>(db, EVERY_TYPE);
    expect(direct).toEqual(expected);
    expect(Object.keys(direct[0] ?? {})).toEqual(Object.keys(expected[0] ?? {}));
    expect(await db.$transaction((tx) => directRows(tx, EVERY_TYPE))).toEqual(expected);
  });

  it("gives the same values through a prepared statement, on every connection, call after call", async () => {
    const expected = await db.$queryRaw<Record<string, unknown>[]>(EVERY_TYPE);
    // Side by side, so both of the pool's connections prepare it; then again, prepared.
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => directRows(db, EVERY_TYPE, { statement: "test.every_type" })),
      );
      for (const answer of answers) expect(answer).toEqual(expected);
    }
    const [prepared] = await directRows<{ n: number }>(
      db,
      Prisma.sql`SELECT count(*)::int4 AS n FROM pg_prepared_statements WHERE name = 'test.every_type'`,
    );
    expect(prepared?.n).toBe(1);
  });

  it("refuses a statement name given to another query's text, and goes on serving", async () => {
    await directRows(db, Prisma.sql`SELECT 1::int4 AS one`, { statement: "test.one" });
    await directRows(db, Prisma.sql`SELECT 1::int4 AS one`, { statement: "test.one" });
    const other = Promise.all(
      [1, 2].map(() =>
        directRows(db, Prisma.sql`SELECT 2::int4 AS two`, { statement: "test.one" }),
      ),
    );
    await expect(other).rejects.toThrow(/Prepared statements must be unique/);
    expect(await directRows(db, Prisma.sql`SELECT 1::int4 AS one`)).toEqual([{ one: 1 }]);
  });

  it("refuses a column of a type it has no parser for, naming it, and goes on serving", async () => {
    await expect(directRows(db, Prisma.sql`SELECT 1.5::numeric AS n`)).rejects.toThrow(
      /column "n" is of type oid 1700, which has no parser here; cast it/,
    );
    expect(await directRows(db, Prisma.sql`SELECT 1::int4 AS one`)).toEqual([{ one: 1 }]);
  });
});
