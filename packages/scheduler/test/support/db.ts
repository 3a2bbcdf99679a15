/** Read-only SQL for assertions (what the tests check, read behind the system's back). */
import pg from "pg";
import { afterAll, inject } from "vitest";
import "../../../storage/test/support/provided-context.ts";

const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => pool.end());

export async function sql<T extends pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await pool.query<T>(text, params)).rows;
}
