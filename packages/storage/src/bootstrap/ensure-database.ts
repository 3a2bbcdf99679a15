import pg from "pg";
import { describeConnection, type PgConnection } from "./database-url.ts";
import { describeConnectionError, StartupError } from "./errors.ts";

/**
 * Connects to the server's maintenance database and creates `conn.database`
 * when it does not exist yet, so `DATABASE_URL=.../<new db> npm start` works.
 */
export async function ensureDatabase(conn: PgConnection): Promise<{ created: boolean }> {
  const admin = new pg.Client({ ...conn, database: "postgres", connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new StartupError(describeConnectionError(err, `${conn.host}:${conn.port}`));
  }
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      conn.database,
    ]);
    if (found.rowCount) return { created: false };
    await admin.query(`CREATE DATABASE "${conn.database}"`);
    return { created: true };
  } catch (err) {
    // Another replica starting at the same moment created it first: 42P04
    // (duplicate_database), or 23505 when both inserts met in the catalog.
    const code = (err as { code?: unknown }).code;
    if (code === "42P04" || code === "23505") return { created: false };
    throw new StartupError(describeConnectionError(err, describeConnection(conn)));
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** Drops a database, disconnecting its sessions (PostgreSQL 13+). */
export async function dropDatabase(conn: PgConnection): Promise<void> {
  const admin = new pg.Client({ ...conn, database: "postgres" });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${conn.database}" WITH (FORCE)`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}
