import { createHash, randomBytes } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dropDatabase, ensureDatabase } from "../src/bootstrap/ensure-database.ts";
import {
  applyMigrations,
  createMigration,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SCHEMA_PATH,
  diffMigrationsAgainstSchema,
  type PgConnection,
  parseDatabaseUrl,
} from "../src/migrations/index.ts";
import "@peloton/test-support/storage/provided-context.ts";

// The test makes its own empty databases, on the server of the integration
// setup's database (which may be an embedded one) when run by that setup.
const server = parseDatabaseUrl(
  inject("databaseUrl") ??
    process.env.PELOTON_TEST_DATABASE_URL ??
    process.env.DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/postgres",
);
const scratch: PgConnection[] = [];
let tmp: string;

async function emptyDatabase(): Promise<PgConnection> {
  const conn = { ...server, database: `peloton_migtest_${randomBytes(5).toString("hex")}` };
  await ensureDatabase(conn);
  scratch.push(conn);
  return conn;
}

async function query<R extends pg.QueryResultRow>(conn: PgConnection, sql: string): Promise<R[]> {
  const client = new pg.Client(conn);
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** schema.prisma with `motto String?` added to Team, written to the temp folder. */
async function schemaWithExtraColumn(): Promise<string> {
  const schema = await readFile(DEFAULT_SCHEMA_PATH, "utf8");
  const changed = schema.replace(/(model Team \{\n[^\n]*\n)/, "$1  motto String?\n");
  expect(changed).not.toBe(schema);
  const path = join(tmp, "schema.prisma");
  await writeFile(path, changed);
  return path;
}

async function migrationNames(dir = DEFAULT_MIGRATIONS_DIR): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "peloton-migrations-"));
});

afterAll(async () => {
  await Promise.allSettled(scratch.map((conn) => dropDatabase(conn)));
  await rm(tmp, { recursive: true, force: true });
});

describe("schema.prisma against prisma/migrations", () => {
  it("agree (if not: npm run db:migrate -- --name <change>)", async () => {
    expect(await diffMigrationsAgainstSchema(await emptyDatabase())).toBeNull();
  });

  it("disagree when the schema gains a column, and the diff names it", async () => {
    const schemaPath = await schemaWithExtraColumn();
    const diff = await diffMigrationsAgainstSchema(await emptyDatabase(), { schemaPath });
    expect(diff).toMatch(/ALTER TABLE "teams" ADD COLUMN\s+"motto" TEXT/);
  });
});

describe("applyMigrations", () => {
  it("builds an empty database, records each migration, then applies nothing", async () => {
    const conn = await emptyDatabase();
    const names = await migrationNames();
    expect(names.length).toBeGreaterThan(0);

    expect(await applyMigrations(conn)).toEqual(names);

    const tables = await query<{ table_name: string }>(
      conn,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["resource_pools", "jobs", "tasks", "task_events", "preemptions"]),
    );
    const rows = await query<{ migration_name: string; checksum: string; finished: boolean }>(
      conn,
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished
         FROM _prisma_migrations ORDER BY migration_name`,
    );
    const expected = await Promise.all(
      names.map(async (name) => ({
        migration_name: name,
        // Prisma's checksum: SHA-256 of migration.sql, hex.
        checksum: createHash("sha256")
          .update(await readFile(join(DEFAULT_MIGRATIONS_DIR, name, "migration.sql")))
          .digest("hex"),
        finished: true,
      })),
    );
    expect(rows).toEqual(expected);

    expect(await applyMigrations(conn)).toEqual([]);
  });
});

describe("createMigration", () => {
  // Regression: the wasm engine gives createMigration no shadow database, so
  // it failed ("PostgreSQL shadow DB must be provided through an external
  // factory") whenever migrations already existed.
  it("writes the next migration after existing ones, and nothing when up to date", async () => {
    const migrationsDir = join(tmp, "migrations");
    await cp(DEFAULT_MIGRATIONS_DIR, migrationsDir, { recursive: true });
    const paths = { schemaPath: await schemaWithExtraColumn(), migrationsDir };
    const conn = await emptyDatabase();

    const created = await createMigration(conn, "team_motto", paths);
    expect(created?.name).toMatch(/^\d{14}_team_motto$/);
    expect(await readFile(join(migrationsDir, `${created?.name}/migration.sql`), "utf8")).toMatch(
      /ALTER TABLE "teams" ADD COLUMN\s+"motto" TEXT/,
    );
    expect(await migrationNames(migrationsDir)).toEqual([
      ...(await migrationNames()),
      created?.name,
    ]);

    expect(await createMigration(conn, "again", paths)).toBeNull();
    expect(await diffMigrationsAgainstSchema(conn, paths)).toBeNull();
  });
});

describe("parseDatabaseUrl", () => {
  it("reads each part, with port 5432 by default", () => {
    expect(parseDatabaseUrl("postgresql://ann:s%40cret@db.local/peloton")).toEqual({
      host: "db.local",
      port: 5432,
      user: "ann",
      password: "s@cret",
      database: "peloton",
    });
  });

  it.each([
    ["not a url", /not a valid URL/],
    ["mysql://root@localhost/peloton", /must start with postgres:\/\//],
    ["postgres://postgres@localhost:5432", /names no database/],
    ["postgres://postgres@localhost:99999/peloton", /not a valid URL/],
  ])("rejects %s with a one-line message", (url, message) => {
    expect(() => parseDatabaseUrl(url)).toThrow(message);
    expect(() => parseDatabaseUrl(url)).toThrow(/^[^\n]+$/);
  });
});
