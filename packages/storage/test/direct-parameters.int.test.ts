import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../src/client.ts";
import { withDirectParameters } from "../src/direct-parameters.ts";
import { Prisma } from "../src/generated/prisma/client.ts";
import "@peloton/test-support/storage/provided-context.ts";

const db = createDb(inject("databaseUrl"), { max: 2 });
afterAll(() => db.$disconnect());

describe("withDirectParameters", () => {
  const ids = [1, 2, 3];
  const texts = ['quotes " and \\ backslashes, {braces}, commas', null, "ünïcødé ✓"];
  const at = new Date("2026-11-25T07:00:00.123Z");

  it("hands arrays to PostgreSQL as arrays, outside and inside a transaction", async () => {
    const read = (client: Pick<typeof db, "$queryRaw">) =>
      withDirectParameters([ids, texts, [at, null, at]], ([i, t, a]) =>
        client.$queryRaw<{ id: number; text: string | null; at: Date | null }[]>(
          Prisma.sql`SELECT * FROM unnest(${i}::int[], ${t}::text[], ${a}::timestamptz[])
                     AS d(id, text, at) ORDER BY id`,
        ),
      );
    const expected = [
      { id: 1, text: texts[0], at },
      { id: 2, text: null, at: null },
      { id: 3, text: texts[2], at },
    ];
    expect(await read(db)).toEqual(expected);
    expect(await db.$transaction((tx) => read(tx))).toEqual(expected);
  });

  it("leaves other parameters alone and forgets the values afterwards", async () => {
    let leaked: Prisma.Sql | undefined;
    const rows = await withDirectParameters([[7, 8]], ([p]) => {
      leaked = p;
      return db.$queryRaw<{ n: number; s: string }[]>(
        Prisma.sql`SELECT cardinality(${p}::int[]) AS n, ${"plain text"}::text AS s`,
      );
    });
    expect(rows).toEqual([{ n: 2, s: "plain text" }]);
    // Used after its scope, the token reaches PostgreSQL as text and is refused.
    await expect(db.$queryRaw(Prisma.sql`SELECT ${leaked as Prisma.Sql}::text`)).rejects.toThrow();
  });
});
