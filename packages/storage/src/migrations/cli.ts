/**
 * `npm run db:migrate -- <command>`: the `prisma migrate` commands this
 * project needs, run offline through the wasm schema engine.
 *
 *   --name <name>  create prisma/migrations/<timestamp>_<name>/ from the schema
 *                  changes (on a scratch database, so no real database changes)
 *   --deploy       apply pending migrations to DATABASE_URL (created if missing)
 *   --check        exit 1 and print the SQL when schema.prisma and the
 *                  migrations disagree
 */
import { randomBytes } from "node:crypto";
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { readEnvironment } from "@peloton/engine/environment";
import { describeConnection } from "../bootstrap/database-url.ts";
import { dropDatabase, ensureDatabase } from "../bootstrap/ensure-database.ts";
import {
  applyMigrations,
  createMigration,
  DEFAULT_SCHEMA_PATH,
  diffMigrationsAgainstSchema,
  type PgConnection,
  parseDatabaseUrl,
  schemaEnginePanic,
} from "./index.ts";

const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const USAGE = "usage: npm run db:migrate -- --name <name> | --deploy | --check";

const databaseUrl = () => readEnvironment(process.env, ["DATABASE_URL"]).DATABASE_URL;

function serverFromEnv(): PgConnection {
  return parseDatabaseUrl(databaseUrl() || DEFAULT_SERVER_URL);
}

/** Runs `use` on a new, empty database beside `server`'s, dropped afterwards. */
async function withScratchDatabase<T>(
  server: PgConnection,
  use: (conn: PgConnection) => Promise<T>,
): Promise<T> {
  const conn = { ...server, database: `peloton_migrate_${randomBytes(6).toString("hex")}` };
  await ensureDatabase(conn);
  try {
    return await use(conn);
  } finally {
    await dropDatabase(conn);
  }
}

async function create(name: string): Promise<void> {
  const created = await withScratchDatabase(serverFromEnv(), (conn) => createMigration(conn, name));
  if (!created) {
    console.log("schema.prisma has no changes since the last migration: nothing created");
    return;
  }
  console.log(`created ${relative(process.cwd(), created.folder)}/migration.sql`);
}

async function deploy(): Promise<void> {
  const url = databaseUrl();
  if (!url) throw new Error("--deploy needs DATABASE_URL: set it to the database to migrate");
  const conn = parseDatabaseUrl(url);
  await ensureDatabase(conn);
  const applied = await applyMigrations(conn);
  const where = describeConnection(conn);
  if (applied.length === 0) console.log(`${where} is up to date`);
  for (const name of applied) console.log(`applied ${name} to ${where}`);
}

async function check(): Promise<number> {
  const diff = await diffMigrationsAgainstSchema(serverFromEnv());
  const schema = relative(process.cwd(), DEFAULT_SCHEMA_PATH);
  if (diff === null) {
    console.log(`${schema} and prisma/migrations agree`);
    return 0;
  }
  console.log(diff.trimEnd());
  console.error(
    `${schema} differs from prisma/migrations (SQL above): run npm run db:migrate -- --name <name>`,
  );
  return 1;
}

function parseCommand(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        name: { type: "string" },
        deploy: { type: "boolean" },
        check: { type: "boolean" },
      },
    }).values;
  } catch (err) {
    throw new Error(`${(err as Error).message} (${USAGE})`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { name, deploy: deploying, check: checking } = parseCommand(argv);
  if ([name !== undefined, deploying, checking].filter(Boolean).length !== 1) {
    throw new Error(USAGE);
  }
  if (name !== undefined) await create(name);
  else if (deploying) await deploy();
  else return check();
  return 0;
}

/** Engine messages span several lines; the CLI reports one. */
function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, " ").trim();
}

// An engine panic fails the calls in flight (which then report it and drop the
// scratch database) and also traps in an engine callback: that trap is noise.
process.on("uncaughtException", (err) => {
  if (schemaEnginePanic() !== undefined) return;
  console.error(`db:migrate: ${oneLine(err)}`);
  process.exit(2);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`db:migrate: ${oneLine(err)}`);
    process.exitCode = 2;
  },
);
