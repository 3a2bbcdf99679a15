/** guardClientErrors: a pooled connection PostgreSQL ends between two queries does not end the process. */
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { guardClientErrors } from "../src/pool-errors.ts";
import "@peloton/test-support/storage/provided-context.ts";

describe("guardClientErrors", () => {
  it("keeps the process up when a checked-out connection is ended between queries, and the pool serves on", async () => {
    const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
    pool.on("error", () => {}); // idle clients' errors, as Prisma's adapter listens for them
    guardClientErrors(pool);
    try {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const ended = new Promise((resolve) => client.once("end", resolve));
      const admin = new pg.Client({ connectionString: inject("databaseUrl") });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
      await admin.end();
      // PostgreSQL's FATAL arrived while the client ran no query: without a
      // listener of its own, that 'error' event is an uncaught exception.
      await ended;
      await expect(client.query("SELECT 1")).rejects.toThrow();
      client.release();
      const again = await pool.query<{ one: number }>("SELECT 1 AS one");
      expect(again.rows[0]?.one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
