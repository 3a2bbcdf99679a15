import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { swapDirectParameters } from "./direct-parameters.ts";
import { registerDirectPool } from "./direct-rows.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { fencedConnection, type LeaseFence } from "./leases/fence.ts";
import { guardClientErrors } from "./pool-errors.ts";

export type Db = PrismaClient;

/**
 * How long a query or a transaction may wait for one of the pool's
 * connections. `pg` waits forever by default, so an exhausted pool would hang
 * a scheduler loop silently; an error names the problem and the loop retries.
 */
export const CONNECTION_WAIT_MS = 15_000;

/**
 * One Prisma client per process, over the `pg` driver adapter (Prisma 7 has
 * no built-in driver). `max` bounds the pool: the console and the scheduler
 * loops share it.
 */
export interface DbOptions {
  max?: number;
  /**
   * Fence every write of this client by a lease epoch: its connections name
   * the lease and epoch, and the database refuses their writes once the
   * lease has moved on (leases/fence.ts).
   */
  fence?: LeaseFence;
}

export function createDb(databaseUrl: string, opts: DbOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.max ?? 10,
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
    // A dead server or network shows up as an error, not as a query waiting forever.
    keepAlive: true,
    ...(opts.fence ? fencedConnection(opts.fence) : {}),
  });
  swapDirectParameters(pool);
  guardClientErrors(pool);
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const db = new PrismaClient({ adapter });
  registerDirectPool(db, pool);
  return db;
}
