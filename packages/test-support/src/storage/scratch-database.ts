/**
 * A scratch database for one test or benchmark run: on DATABASE_URL's server
 * when set, else on an embedded PostgreSQL started in a temporary folder.
 * `dispose()` drops the database and stops the server it started.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  dropDatabase,
  ensureDatabase,
  formatDatabaseUrl,
  type PgConnection,
  parseDatabaseUrl,
  startEmbeddedPostgres,
} from "@peloton/storage/bootstrap";
import { applyMigrations } from "@peloton/storage/migrations";

export interface ScratchDatabase {
  url: string;
  connection: PgConnection;
  dispose: () => Promise<void>;
}

export async function createScratchDatabase(
  prefix: string,
  opts: { migrate?: boolean } = {},
): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  let server: Omit<PgConnection, "database">;
  let stopServer = async () => {};
  if (process.env.DATABASE_URL) {
    const { database: _ignored, ...rest } = parseDatabaseUrl(process.env.DATABASE_URL);
    server = rest;
  } else {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-pg-`));
    // PostgreSQL runs as the `postgres` user when we are root: it must reach its folder.
    chmodSync(dir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir: join(dir, "data") });
    server = embedded.connection;
    stopServer = async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const connection: PgConnection = { ...server, database: name };
  try {
    await ensureDatabase(connection);
    if (opts.migrate !== false) await applyMigrations(connection);
  } catch (err) {
    await stopServer();
    throw err;
  }
  return {
    url: formatDatabaseUrl(connection),
    connection,
    dispose: async () => {
      await dropDatabase(connection).catch(() => undefined);
      await stopServer();
    },
  };
}
