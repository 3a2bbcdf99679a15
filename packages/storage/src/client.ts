import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { swapDirectParameters } from "./direct-parameters.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

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
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.max ?? 10,
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
  });
  swapDirectParameters(pool);
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  return new PrismaClient({ adapter });
}
