import type pg from "pg";

/**
 * A connection that PostgreSQL ends (a restart, kill -9 of the server, a
 * terminated backend) reports an 'error' event on its `pg` client. pg-pool
 * listens while a client is idle, and its `query()` and Prisma's
 * transactions listen while they use one; a client that has none at that
 * moment ends the process (an 'error' event without a listener throws). CI
 * met it once: postgres-outage.int.test.ts, kill -9 of PostgreSQL under
 * load. So every client of the pool listens for its whole life: the event is
 * dropped here, whoever holds the client finds the connection gone at its
 * next query, and pg-pool discards a client that can no longer query when it
 * comes back.
 */
export function guardClientErrors(pool: pg.Pool): void {
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
}
