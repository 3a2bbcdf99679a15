/**
 * SQL straight to the test database, around the system's services: reads
 * for assertions, and writes that put rows where no service would (a task
 * killed behind the scheduler's back, a preemption left half done). A test that
 * writes here is testing what the system does about it, not a path the
 * system offers.
 */
import pg from "pg";
import { afterAll, inject } from "vitest";
import "./provided-context.ts";

const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => pool.end());

export async function directSql<T extends pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await pool.query<T>(text, params)).rows;
}
