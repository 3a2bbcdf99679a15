/**
 * Start-up of the database: which server (DATABASE_URL or the embedded one),
 * make sure the database exists, bring its schema up to date.
 *
 * Server-only and kept out of the package's main entry so that the console's
 * bundle never pulls in PostgreSQL binaries or the migration engine.
 */
import { applyMigrations } from "../migrations/index.ts";
import {
  describeConnection,
  formatDatabaseUrl,
  type PgConnection,
  parseDatabaseUrl,
} from "./database-url.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import { ensureDatabase } from "./ensure-database.ts";
import { describeConnectionError, StartupError } from "./errors.ts";

export {
  describeConnection,
  formatDatabaseUrl,
  type PgConnection,
  parseDatabaseUrl,
} from "./database-url.ts";
export {
  type EmbeddedOptions,
  type EmbeddedServer,
  startEmbeddedPostgres,
} from "./embedded-postgres.ts";
export { dropDatabase, ensureDatabase } from "./ensure-database.ts";
export { describeConnectionError, StartupError } from "./errors.ts";

export interface OpenedDatabase {
  url: string;
  connection: PgConnection;
  /** "embedded" when this process started PostgreSQL itself. */
  source: "embedded" | "DATABASE_URL";
  /** Migrations applied by this start (empty when already up to date). */
  applied: string[];
  stop: () => Promise<void>;
}

export interface OpenDatabaseOptions {
  /** DATABASE_URL; when absent the embedded server is started. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded server's data (reused across starts). */
  dataDir: string;
  /** Database name on the embedded server. */
  embeddedDatabase?: string;
  onLog?: (line: string) => void;
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<OpenedDatabase> {
  let connection: PgConnection;
  let stop = async () => {};
  let source: OpenedDatabase["source"];
  if (opts.databaseUrl) {
    connection = parseDatabaseUrl(opts.databaseUrl);
    source = "DATABASE_URL";
  } else {
    const server = await startEmbeddedPostgres({
      dataDir: opts.dataDir,
      ...(opts.onLog ? { onLog: opts.onLog } : {}),
    });
    connection = { ...server.connection, database: opts.embeddedDatabase ?? "peloton" };
    stop = server.stop;
    source = "embedded";
  }
  try {
    await ensureDatabase(connection);
    let applied: string[];
    try {
      applied = await applyMigrations(connection);
    } catch (err) {
      if (err instanceof StartupError) throw err;
      throw new StartupError(
        `migrating ${describeConnection(connection)} failed: ${describeConnectionError(err, describeConnection(connection))}`,
      );
    }
    return { url: formatDatabaseUrl(connection), connection, source, applied, stop };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
