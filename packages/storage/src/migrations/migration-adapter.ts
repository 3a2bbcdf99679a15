/**
 * The `pg` driver adapter the schema engine runs on, with the fixes that
 * prisma-offline.md lists for adapter-pg 7.10.1. Used by migrations only: the
 * application's own Prisma client keeps the stock `PrismaPg`.
 */
import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { ColumnTypeEnum, type SqlQueryable } from "@prisma/driver-adapter-utils";
import pg from "pg";
import type { PgConnection } from "../bootstrap/database-url.ts";
import { splitSqlScript } from "./sql-script.ts";

const CHAR_OID = 18;
const TEXT_OID = 25;

/** Marks a pg result's rows with the indexes of its `"char"` columns. */
const CHAR_COLUMNS = Symbol("char columns");

interface PgResultLike {
  fields?: { dataTypeID: number }[];
  rows?: unknown[];
}

/**
 * adapter-pg cannot map `"char"` (OID 18) and fails the whole query, so the
 * columns are reported to it as text and their positions noted on the rows
 * array, which adapter-pg passes through to its result unchanged.
 */
function hideCharColumns<T>(result: T): T {
  // A multi-statement query resolves to an array of results.
  for (const r of (Array.isArray(result) ? result : [result]) as (PgResultLike | undefined)[]) {
    const chars: number[] = [];
    r?.fields?.forEach((field, i) => {
      if (field.dataTypeID !== CHAR_OID) return;
      field.dataTypeID = TEXT_OID;
      chars.push(i);
    });
    if (chars.length > 0 && r?.rows) Object.defineProperty(r.rows, CHAR_COLUMNS, { value: chars });
  }
  return result;
}

type LooseQuery = (...args: unknown[]) => unknown;

/**
 * Pitfall 1 ("Column type 'char' could not be deserialized", prisma/orm#27403):
 * the engine reads catalog columns of type `"char"`, such as
 * `pg_constraint.contype`. A Client subclass handed to the migration pools
 * hides them from adapter-pg; it does not patch `pg.Client.prototype` because
 * migrations also run inside the console process, whose queries must not
 * change.
 */
class CharAsTextClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as unknown as LooseQuery;
    const patched: LooseQuery = (...args) => {
      // pg-pool calls query(config, values, callback); adapter transactions
      // call query(config) and await the promise.
      const last = args[args.length - 1];
      if (typeof last === "function") {
        const callback = last as (err: unknown, res: unknown) => void;
        return query(...args.slice(0, -1), (err: unknown, res: unknown) =>
          callback(err, err ? res : hideCharColumns(res)),
        );
      }
      const ret = query(...args);
      return ret instanceof Promise ? ret.then(hideCharColumns) : ret;
    };
    this.query = patched as unknown as typeof this.query;
  }
}

/**
 * The second half of pitfall 1: reporting `"char"` as text is not enough. The
 * engine reads those columns as a single character and panics on text
 * ("Getting constraint_type ... as char failed") as soon as a row comes back:
 * any CHECK constraint, and every NOT NULL column on PostgreSQL 18, which
 * records those in pg_constraint. So the columns are restored to the adapter
 * protocol's Character type here.
 */
function restoreCharColumns<Q extends SqlQueryable>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    const chars = (result.rows as { [CHAR_COLUMNS]?: number[] })[CHAR_COLUMNS] ?? [];
    for (const i of chars) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  return queryable;
}

function poolConfig(conn: PgConnection): pg.PoolConfig {
  return {
    // Pitfall 3: separate fields, never a connectionString. In `pg` a
    // connection string wins over `database`, so the "shadow" pool below
    // would silently point at the real database.
    host: conn.host,
    port: conn.port,
    user: conn.user,
    ...(conn.password === undefined ? {} : { password: conn.password }),
    database: conn.database,
    Client: CharAsTextClient as unknown as new () => pg.ClientBase,
    // A pool that escapes disposal (an engine panic) must not keep a CLI alive.
    allowExitOnIdle: true,
  };
}

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/**
 * `PrismaPg` whose shadow database can be dropped, and which remembers every
 * pool it opens so that `closeAll()` can end the ones the engine leaves open.
 */
export class MigrationPg extends PrismaPg {
  readonly #config: pg.PoolConfig;
  readonly #open = new Set<Adapter>();

  constructor(conn: PgConnection) {
    const config = poolConfig(conn);
    super(config);
    this.#config = config;
  }

  override async connect(): Promise<Adapter> {
    return this.#track(await super.connect());
  }

  /**
   * Pitfall 2: adapter-pg drops the shadow database while its own pool is
   * still connected, which fails with "is being accessed by other users", and
   * never closes the pool it created the database from. Here disposal closes
   * the shadow pool first, then drops with FORCE (PostgreSQL 13+), then closes
   * the admin pool.
   */
  override async connectToShadowDb(): Promise<Adapter> {
    // Untracked: only the shadow's disposal may close it, after the DROP.
    const admin = await super.connect();
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    try {
      await admin.executeScript(`CREATE DATABASE "${database}"`);
    } catch (err) {
      await admin.dispose();
      throw err;
    }
    const shadow = await new PrismaPg({ ...this.#config, database }).connect();
    const closeShadowPool = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      try {
        await closeShadowPool();
        await admin.executeScript(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      } finally {
        await admin.dispose();
      }
    };
    return this.#track(shadow);
  }

  /** Ends the pools the engine did not dispose itself. */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#open].map((adapter) => adapter.dispose()));
  }

  /**
   * Restores `"char"` columns on the adapter and its transactions, makes
   * dispose idempotent (pg throws on a second `pool.end()`) and remembers the
   * adapter until it is disposed.
   */
  #track(adapter: Adapter): Adapter {
    restoreCharColumns(adapter);
    splitScriptsProperly(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) =>
      restoreCharColumns(await startTransaction(isolationLevel));
    this.#open.add(adapter);
    const dispose = adapter.dispose.bind(adapter);
    let disposed: Promise<void> | undefined;
    adapter.dispose = () => {
      this.#open.delete(adapter);
      disposed ??= dispose();
      return disposed;
    };
    return adapter;
  }
}

/**
 * adapter-pg runs a script by splitting it at every `;`, which breaks
 * function bodies (the lease fence's trigger function); statements are
 * split here with quotes and dollar quotes respected, then run one by one
 * as before, errors mapped by the adapter as before.
 */
function splitScriptsProperly(adapter: Adapter): void {
  const driver = adapter.underlyingDriver() as pg.Pool;
  const mapped = adapter as unknown as { onError(err: unknown): never };
  adapter.executeScript = async (script) => {
    for (const statement of splitSqlScript(script)) {
      try {
        await driver.query(statement);
      } catch (err) {
        mapped.onError(err);
      }
    }
  };
}
