/**
 * Prisma's schema engine (the part of `prisma migrate` that diffs schemas and
 * applies migrations) as a small typed session over PostgreSQL. The wasm
 * loading lives in wasm-runtime.ts, the `pg` fixes in migration-adapter.ts.
 */
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type {
  CreateMigrationOutput,
  DevAction,
  DiagnoseMigrationHistoryOutput,
  DiffTarget,
  MigrationList,
  SchemaContainer,
  SchemaEngine,
  SchemaFilter,
} from "@prisma/schema-engine-wasm";
import type { PgConnection } from "../bootstrap/database-url.ts";
import { MigrationPg } from "./migration-adapter.ts";
import { engineCall, loadSchemaEngine, useEngine } from "./wasm-runtime.ts";

export type { DiffTarget, MigrationList, SchemaContainer } from "@prisma/schema-engine-wasm";
export { SchemaEngineError, schemaEnginePanic } from "./wasm-runtime.ts";

// No table or enum here is managed outside Prisma.
const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

/** The engine calls this project uses, with the filters filled in. */
export interface SchemaEngineSession {
  /** A SQL script from `from` to `to`; `exitCode` 2 means they differ. */
  diff(from: DiffTarget, to: DiffTarget): Promise<{ script: string; exitCode: number }>;
  /** Applies the unapplied migrations; returns their names. */
  applyMigrations(migrations: MigrationList): Promise<string[]>;
  /**
   * What `migrate dev` should do: create a migration, or reset the database
   * (drift, edited or failed migrations). Replays the applied migrations on a
   * shadow database and caches the result, which `createMigration` needs.
   */
  devDiagnostic(migrations: MigrationList): Promise<DevAction>;
  /**
   * The next migration, or a null script when the schema has not changed.
   * The wasm engine gives this call no shadow database: unless `migrations`
   * is empty, `devDiagnostic` must have run first in this session on a
   * database where all of `migrations` are applied.
   */
  createMigration(migrations: MigrationList, name: string): Promise<CreateMigrationOutput>;
  diagnoseMigrationHistory(migrations: MigrationList): Promise<DiagnoseMigrationHistoryOutput>;
}

export interface SchemaEngineOptions {
  /** The database the engine connects to; shadow databases are created beside it. */
  connection: PgConnection;
  /** The Prisma schema files, as `[{ path, content }]`. */
  schemaFiles: SchemaContainer[];
  /** Receives the engine's log lines (JSON), for debugging. */
  onLog?: (line: string) => void;
}

function sessionOf(engine: SchemaEngine, schemaFiles: SchemaContainer[]): SchemaEngineSession {
  return {
    diff: (from, to) =>
      engineCall(async () => {
        const r = await engine.diff({
          from,
          to,
          script: true,
          exitCode: true,
          filters: NO_FILTERS,
        });
        return { script: r.stdout ?? "", exitCode: r.exitCode };
      }),
    applyMigrations: (migrationsList) =>
      engineCall(async () => {
        const r = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
        return r.appliedMigrationNames;
      }),
    devDiagnostic: (migrationsList) =>
      engineCall(async () => {
        const r = await engine.devDiagnostic({ migrationsList, filters: NO_FILTERS });
        return r.action;
      }),
    createMigration: (migrationsList, migrationName) =>
      engineCall(() =>
        engine.createMigration({
          // Not a draft, so that an unchanged schema yields no script rather
          // than an empty migration.
          draft: false,
          migrationName,
          migrationsList,
          schema: { files: schemaFiles },
          filters: NO_FILTERS,
        }),
      ),
    diagnoseMigrationHistory: (migrationsList) =>
      engineCall(() =>
        engine.diagnoseMigrationHistory({
          migrationsList,
          optInToShadowDatabase: false,
          filters: NO_FILTERS,
        }),
      ),
  };
}

/**
 * Runs `use` with an engine connected to `options.connection`, created on the
 * spot (it connects at once), then frees the engine and ends every pool it
 * opened, whether `use` succeeded or not.
 */
export async function withSchemaEngine<T>(
  options: SchemaEngineOptions,
  use: (engine: SchemaEngineSession) => Promise<T>,
): Promise<T> {
  const glue = await loadSchemaEngine();
  const release = useEngine();
  const adapter = new MigrationPg(options.connection);
  let engine: SchemaEngine | undefined;
  try {
    engine = await engineCall(() =>
      glue.SchemaEngine.new(
        { datamodels: options.schemaFiles.map((f): [string, string] => [f.path, f.content]) },
        options.onLog ?? (() => {}),
        bindMigrationAwareSqlAdapterFactory(adapter),
      ),
    );
    return await use(sessionOf(engine, options.schemaFiles));
  } finally {
    try {
      engine?.free();
    } catch {
      // Only after a panic, when the wasm instance is unusable anyway.
    }
    await adapter.closeAll();
    release();
  }
}
