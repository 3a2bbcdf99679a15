import { openGateway, type StorageGateway } from "@peloton/storage";
import pg from "pg";
import { inject } from "vitest";
import "./provided-context.ts";

/** A gateway on the run's scratch database (see global-setup.ts). */
export function testGateway(): StorageGateway {
  return openGateway(inject("databaseUrl"), { max: 4 });
}

/** Empties every table of the scratch database between test files, keeping the schema. */
export async function resetDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'",
    );
    if (rows.length) {
      await client.query(
        `TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(", ")} RESTART IDENTITY CASCADE`,
      );
    }
  } finally {
    await client.end();
  }
}
