import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../src/client.ts";
import { withArrayParameters } from "../src/direct-parameters.ts";
import { Prisma } from "../src/generated/prisma/client.ts";
import "@peloton/test-support/storage/provided-context.ts";

const db = createDb(inject("databaseUrl"), { max: 1 });
afterAll(() => db.$disconnect());

describe("withArrayParameters: array literals read by PostgreSQL", () => {
  it("gives back every value as it was written", async () => {
    const texts = ['quotes " and \\ backslashes, {braces}, commas', null, "NULL", "", "ünïcødé ✓"];
    const at = new Date("2026-11-25T07:00:00.123Z");
    const columns = [
      texts,
      [at, null, at, null, at],
      [{ http: 31000, 'a"b': 1 }, null, {}, { x: "\\" }, null],
      [true, false, null, true, false],
      [1, -2.5, null, 0, 1e9],
    ];
    const rows = await withArrayParameters(columns, ([t, a, j, b, f]) =>
      db.$queryRaw<
        { t: string | null; a: Date | null; j: unknown; b: boolean | null; f: number | null }[]
      >(
        Prisma.sql`SELECT t, a, j, b, f FROM unnest(${t}::text[], ${a}::timestamptz[], ${j}::jsonb[],
                   ${b}::bool[], ${f}::float8[]) WITH ORDINALITY AS d(t, a, j, b, f, n) ORDER BY n`,
      ),
    );
    expect(rows).toEqual(
      texts.map((_, i) => ({
        t: columns[0]?.[i],
        a: columns[1]?.[i],
        j: columns[2]?.[i],
        b: columns[3]?.[i],
        f: columns[4]?.[i],
      })),
    );
  });
});
