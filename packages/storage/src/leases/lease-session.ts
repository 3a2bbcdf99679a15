/**
 * The scheduling lease's own PostgreSQL session: a dedicated connection that
 * holds a session advisory lock (who may lead) and owns the lease row (the
 * epoch that fences the leader's writes, who leads, when it last proved it).
 *
 *   open ─▶ tryAcquire (advisory lock) ─▶ claim: end the old epoch's writers,
 *           bump the epoch ─▶ renew every few hundred ms ─▶ close / lost
 *
 * The lock lives exactly as long as the session, so a replica that crashes
 * or is cut off frees it for a standby at once. Nothing else runs on this
 * connection, so the leader's heavy work cannot queue in front of a check;
 * every query has a deadline, and the server drops the session itself when
 * the network goes quiet (TCP keepalives, tcp_user_timeout), which releases
 * the lock for a standby even if this process hangs.
 */
import pg from "pg";
import { leaderApplicationPattern } from "./fence.ts";

export interface LeaseSessionOptions {
  /** The lease row's name; the advisory lock's key is its hash. */
  lease: string;
  /** A query without an answer after this long means the session is lost. Default 1 s. */
  queryTimeoutMs?: number;
  /** Giving up on connecting. Default 2 s. */
  connectTimeoutMs?: number;
}

/** Server-side bounds of the lock session (see the header). */
const SESSION_SETTINGS = [
  "statement_timeout=5000",
  "lock_timeout=5000",
  "idle_in_transaction_session_timeout=5000",
  "tcp_keepalives_idle=1",
  "tcp_keepalives_interval=1",
  "tcp_keepalives_count=2",
  "tcp_user_timeout=2000",
];

export class LeaseSession {
  private lostListeners: Array<(err: Error) => void> = [];
  private lostError: Error | undefined;

  private constructor(
    private readonly client: pg.Client,
    private readonly opts: Required<LeaseSessionOptions>,
    /** The server process of this session: what `pg_terminate_backend` would end. */
    readonly backendPid: number,
  ) {
    client.on("error", (err) => this.markLost(err));
    client.on("end", () => this.markLost(new Error("the lease session's connection ended")));
  }

  static async open(databaseUrl: string, options: LeaseSessionOptions): Promise<LeaseSession> {
    const opts = { queryTimeoutMs: 1_000, connectTimeoutMs: 2_000, ...options };
    const client = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1_000,
      connectionTimeoutMillis: opts.connectTimeoutMs,
      application_name: `peloton lease ${opts.lease}`,
      options: SESSION_SETTINGS.map((s) => `-c ${s}`).join(" "),
    });
    // Until the session object listens, a dropped connection must not crash the process.
    const early = () => {};
    client.on("error", early);
    try {
      await client.connect();
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      client.off("error", early);
      return new LeaseSession(client, opts, rows[0]!.pid);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  /** Takes the advisory lock if free (never waits). True while this session holds it. */
  async tryAcquire(): Promise<boolean> {
    const { rows } = await this.query<{ held: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext($1)::bigint) AS held",
      [`peloton:${this.opts.lease}`],
    );
    return rows[0]?.held === true;
  }

  /**
   * With the advisory lock held: ends the write connections of earlier
   * epochs (a deposed leader's transaction in flight is rolled back rather
   * than waited for), then moves the lease to the next epoch with `holder`
   * as its holder. Returns the new epoch.
   */
  async claim(holder: string): Promise<bigint> {
    await this.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name LIKE $1 AND pid <> pg_backend_pid()`,
      [leaderApplicationPattern(this.opts.lease)],
      // Ending backends waits for them to go (up to a few seconds when busy).
      5_000,
    ).catch(() => undefined); // Best effort: without the right, the bump still waits for them.
    const { rows } = await this.query<{ epoch: string }>(
      `INSERT INTO scheduler_leases (name, holder, epoch, acquired_at, renewed_at)
       VALUES ($1, $2, 1, now(), now())
       ON CONFLICT (name) DO UPDATE
         SET holder = EXCLUDED.holder, epoch = scheduler_leases.epoch + 1,
             acquired_at = now(), renewed_at = now()
       RETURNING epoch::text AS epoch`,
      [this.opts.lease, holder],
      5_000,
    );
    return BigInt(rows[0]!.epoch);
  }

  /**
   * Proves the lease is still this holder's at `epoch` and records when.
   * False when the lease moved on; throws when the session cannot answer in
   * time. Touches renewed_at only (not a key column), so it never waits for
   * the leader's own fenced transactions.
   */
  async renew(epoch: bigint, holder: string): Promise<boolean> {
    const result = await this.query(
      "UPDATE scheduler_leases SET renewed_at = now() WHERE name = $1 AND epoch = $2 AND holder = $3",
      [this.opts.lease, epoch.toString(), holder],
    );
    return result.rowCount === 1;
  }

  get lost(): boolean {
    return this.lostError !== undefined;
  }

  /** Called once when the session's connection fails, ends or stops answering. */
  onLost(fn: (err: Error) => void): void {
    if (this.lostError !== undefined) fn(this.lostError);
    else this.lostListeners.push(fn);
  }

  /** Ends the session, which releases the lock. */
  async close(): Promise<void> {
    this.lostListeners = [];
    await this.client.end().catch(() => undefined);
  }

  private markLost(err: Error): void {
    if (this.lostError !== undefined) return;
    this.lostError = err;
    for (const fn of this.lostListeners.splice(0)) fn(err);
  }

  /**
   * A query with a deadline. The deadline is measured against answers, not
   * against a busy event loop: when the timer fires, pending socket reads
   * are let through first (setImmediate runs after the poll phase), so a
   * process that was merely busy does not mistake a prompt answer for
   * silence. A real timeout marks the session lost and drops it.
   */
  private async query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    timeoutMs = this.opts.queryTimeoutMs,
  ): Promise<pg.QueryResult<R>> {
    if (this.lostError !== undefined) throw this.lostError;
    let settled = false;
    const pending = this.client.query<R>(text, values).finally(() => {
      settled = true;
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        setImmediate(() => {
          if (settled) return;
          const err = new Error(`the lease session did not answer within ${timeoutMs} ms`);
          this.markLost(err);
          reject(err);
          // Dropping the connection also makes the server release the lock.
          (
            this.client as unknown as { connection?: { stream?: { destroy(): void } } }
          ).connection?.stream?.destroy();
        });
      }, timeoutMs);
    });
    try {
      return await Promise.race([pending, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
