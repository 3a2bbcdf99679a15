/**
 * Binary timestamptz[] parameters (timestamptz-array.ts) as the task writer
 * sends them: through Prisma inside a transaction, swapped for the Buffer
 * on the way to PostgreSQL, read back as the same instants.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../src/client.ts";
import { withDirectParameters } from "../src/direct-parameters.ts";
import { Prisma } from "../src/generated/prisma/client.ts";
import { timestamptzArray } from "../src/timestamptz-array.ts";
import "@peloton/test-support/storage/provided-context.ts";

const db = createDb(inject("databaseUrl"), { max: 1 });
afterAll(() => db.$disconnect());

describe("timestamptzArray: binary time arrays read by PostgreSQL", () => {
  it("gives back every instant to the millisecond, NULLs and times before 2000 included", async () => {
    const times = [
      new Date("2026-11-30T14:00:00.123Z"),
      null,
      new Date("1999-12-31T23:59:59.999Z"),
      new Date("2000-01-01T00:00:00.000Z"),
      new Date("1970-01-01T00:00:00.001Z"),
      new Date("2262-04-11T23:47:16.854Z"),
      null,
    ];
    const rows = await db.$transaction((tx) =>
      withDirectParameters([timestamptzArray(times)], ([p]) =>
        tx.$queryRaw<{ at: Date | null; exact: string | null }[]>(
          Prisma.sql`SELECT at, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS exact
                     FROM unnest(${p}::timestamptz[]) WITH ORDINALITY AS d(at, n) ORDER BY n`,
        ),
      ),
    );
    expect(rows.map((r) => r.at)).toEqual(times);
    // Whole milliseconds on the server too: no microseconds invented on the way.
    expect(rows[0]?.exact).toBe("2026-11-30 14:00:00.123000");
    expect(rows[2]?.exact).toBe("1999-12-31 23:59:59.999000");
  });

  it("an empty array is an empty array", async () => {
    const rows = await withDirectParameters([timestamptzArray([])], ([p]) =>
      db.$queryRaw<{ n: number }[]>(Prisma.sql`SELECT cardinality(${p}::timestamptz[])::int AS n`),
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("an invalid Date is refused before anything is sent", () => {
    expect(() => timestamptzArray([new Date(Number.NaN)])).toThrow(/invalid Date/);
  });
});
