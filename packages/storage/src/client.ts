import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Db = PrismaClient;

/**
 * One Prisma client per process, over the `pg` driver adapter (Prisma 7 has
 * no built-in driver). `max` bounds the pool: the console and the scheduler
 * loops share it.
 */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10 });
  return new PrismaClient({ adapter });
}
