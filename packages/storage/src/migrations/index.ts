/**
 * Migrations of the scheduler's database: `prisma migrate` equivalents that
 * work offline (shared/design/prisma-offline.md).
 *
 *   prisma/schema.prisma ──┐
 *                          ├── schema engine (wasm) ── PostgreSQL: the target database
 *   prisma/migrations/ ────┘                              + shadow databases beside it
 *                                                           (to replay the migrations)
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { PgConnection } from "../bootstrap/database-url.ts";
import { readMigrationsDir, writeMigration } from "./migrations-dir.ts";
import {
  type DiffTarget,
  type MigrationList,
  type SchemaContainer,
  type SchemaEngineSession,
  withSchemaEngine,
} from "./schema-engine.ts";

export { type PgConnection, parseDatabaseUrl } from "../bootstrap/database-url.ts";
export { SchemaEngineError, schemaEnginePanic } from "./schema-engine.ts";

// src/migrations → src → storage → packages → repository root.
const REPO_ROOT = new URL("../../../../", import.meta.url);
export const DEFAULT_SCHEMA_PATH = fileURLToPath(new URL("prisma/schema.prisma", REPO_ROOT));
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL("prisma/migrations", REPO_ROOT));

/** Where the schema and the migrations are; the repository's by default. */
export interface MigrationPaths {
  schemaPath?: string;
  migrationsDir?: string;
}

export interface CreatedMigration {
  /** The folder name, `<UTC timestamp>_<name>`, as stored in `_prisma_migrations`. */
  name: string;
  /** Absolute path of the new folder. */
  folder: string;
  sql: string;
}

interface Sources {
  schemaFiles: SchemaContainer[];
  migrationsDir: string;
}

async function withEngine<T>(
  conn: PgConnection,
  paths: MigrationPaths,
  use: (engine: SchemaEngineSession, sources: Sources) => Promise<T>,
): Promise<T> {
  const schemaPath = paths.schemaPath ?? DEFAULT_SCHEMA_PATH;
  const schemaFiles = [{ path: schemaPath, content: await readFile(schemaPath, "utf8") }];
  const migrationsDir = paths.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  return withSchemaEngine({ connection: conn, schemaFiles }, (engine) =>
    use(engine, { schemaFiles, migrationsDir }),
  );
}

/**
 * `prisma migrate deploy`: applies the migrations not yet recorded in
 * `_prisma_migrations`, in order. Returns their names (empty when the
 * database is up to date). The database must exist.
 */
export function applyMigrations(conn: PgConnection, paths: MigrationPaths = {}): Promise<string[]> {
  return withEngine(conn, paths, async (engine, { migrationsDir }) =>
    engine.applyMigrations(await readMigrationsDir(migrationsDir)),
  );
}

/**
 * `prisma migrate dev --name <name> --create-only`, except that an unchanged
 * schema writes nothing and returns null. Pending migrations are applied to
 * `conn` first, as `migrate dev` does; a database that has drifted from the
 * migrations is refused rather than reset.
 */
export function createMigration(
  conn: PgConnection,
  name: string,
  paths: MigrationPaths = {},
): Promise<CreatedMigration | null> {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    return Promise.reject(
      new Error(`migration name "${name}" may use only letters, digits, _ and -`),
    );
  }
  return withEngine(conn, paths, async (engine, { migrationsDir }) => {
    const migrations = await readMigrationsDir(migrationsDir);
    await refuseReset(engine, migrations);
    // createMigration gets no shadow database from the wasm engine: it reuses
    // the replay of the *applied* migrations that devDiagnostic caches, so
    // when pending ones were just applied, diagnose again to cover them.
    if ((await engine.applyMigrations(migrations)).length > 0) {
      await refuseReset(engine, migrations);
    }
    const out = await engine.createMigration(migrations, name);
    if (out.migrationScript === null) return null;
    const folder = await writeMigration(
      migrationsDir,
      out.generatedMigrationName,
      out.migrationScript,
    );
    return { name: out.generatedMigrationName, folder, sql: out.migrationScript };
  });
}

/** `migrate dev` offers to reset a drifted database; a script must not drop data, so it stops. */
async function refuseReset(engine: SchemaEngineSession, migrations: MigrationList): Promise<void> {
  const action = await engine.devDiagnostic(migrations);
  if (action.tag === "reset") {
    throw new Error(
      `the database needs a reset before a migration can be created: ${action.reason}`,
    );
  }
}

/** Whether a diff script does nothing (the engine writes "-- This is an empty migration."). */
function isEmptyScript(script: string): boolean {
  return script
    .split("\n")
    .map((line) => line.trim())
    .every((line) => line === "" || line.startsWith("--"));
}

/**
 * The SQL that would bring a database built from the migrations to the schema,
 * or null when they agree. Replays the migrations on a shadow database, so it
 * needs a server where `conn.user` may create databases; `conn`'s own database
 * is only connected to, never changed.
 */
export function diffMigrationsAgainstSchema(
  conn: PgConnection,
  paths: MigrationPaths = {},
): Promise<string | null> {
  return withEngine(conn, paths, async (engine, { schemaFiles, migrationsDir }) => {
    const migrations = await readMigrationsDir(migrationsDir);
    // The engine needs the lockfile to replay migrations; with none there is
    // nothing to replay, so the starting point is the empty database.
    const from: DiffTarget =
      migrations.migrationDirectories.length === 0
        ? { tag: "empty" }
        : { tag: "migrations", ...migrations };
    const { script, exitCode } = await engine.diff(from, {
      tag: "schemaDatamodel",
      files: schemaFiles,
    });
    return exitCode === 0 || isEmptyScript(script) ? null : script;
  });
}
