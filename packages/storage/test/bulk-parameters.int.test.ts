import { afterAll, describe, expect, it } from "vitest";
import { withBulkJson } from "../src/bulk-parameters.ts";
import { createDb } from "../src/client.ts";
import { Prisma } from "../src/generated/prisma/client.ts";
import "./support/provided-context.ts";
import { inject } from "vitest";

const db = createDb(inject("databaseUrl"), { max: 2 });
afterAll(() => db.$disconnect());

describe("withBulkJson", () => {
  const doc = [
    { id: 1, text: 'quotes " and \\ backslashes', unicode: "ünïcødé ✓" },
    { id: 2, text: null, unicode: "" },
  ];

  it("hands the document to PostgreSQL as json, outside and inside a transaction", async () => {
    const read = (client: Pick<typeof db, "$queryRaw">) =>
      withBulkJson([doc], ([param]) =>
        client.$queryRaw<{ id: number; text: string | null; unicode: string }[]>(
          Prisma.sql`SELECT * FROM json_to_recordset(${param}) AS d(id int, text text, unicode text) ORDER BY id`,
        ),
      );
    expect(await read(db)).toEqual(doc);
    expect(await db.$transaction((tx) => read(tx))).toEqual(doc);
  });

  it("leaves other parameters alone and forgets the document afterwards", async () => {
    let leaked: Prisma.Sql | undefined;
    const rows = await withBulkJson([{ n: 7 }], ([param]) => {
      leaked = param;
      return db.$queryRaw<{ n: number; s: string }[]>(
        Prisma.sql`SELECT (${param} ->> 'n')::int AS n, ${"plain text"}::text AS s`,
      );
    });
    expect(rows).toEqual([{ n: 7, s: "plain text" }]);
    // Used after its scope, the token reaches PostgreSQL as text and is refused.
    await expect(db.$queryRaw(Prisma.sql`SELECT ${leaked!}`)).rejects.toThrow();
  });
});
