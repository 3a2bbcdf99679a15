/**
 * A PostgreSQL session advisory lock on a dedicated connection: the lock
 * lives exactly as long as the session, so a replica that crashes, hangs
 * past the server's timeouts or is cut off loses it, and the lock is free
 * for a standby at once. Holding it is what makes a replica the leader.
 */
import pg from "pg";

export interface AdvisoryLockOptions {
  /** The lock's name; its hash is the lock key. */
  name: string;
  /** A query that takes longer than this means the session is lost. Default 5 s. */
  queryTimeoutMs?: number;
}

export class AdvisoryLockSession {
  private lostListeners: Array<(err: Error) => void> = [];
  private lostError: Error | undefined;

  private constructor(
    private readonly client: pg.Client,
    private readonly name: string,
    /** The server process of this session: what `pg_terminate_backend` would end. */
    readonly backendPid: number,
  ) {
    const lost = (err: Error) => {
      if (this.lostError !== undefined) return;
      this.lostError = err;
      for (const fn of this.lostListeners.splice(0)) fn(err);
    };
    client.on("error", lost);
    client.on("end", () => lost(new Error("the lock session's connection ended")));
  }

  static async open(databaseUrl: string, opts: AdvisoryLockOptions): Promise<AdvisoryLockSession> {
    const client = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      query_timeout: opts.queryTimeoutMs ?? 5_000,
      application_name: `peloton lock ${opts.name}`,
    });
    // Until the session object listens, a dropped connection must not crash the process.
    const early = () => {};
    client.on("error", early);
    await client.connect();
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    client.off("error", early);
    return new AdvisoryLockSession(client, opts.name, rows[0]!.pid);
  }

  /** Takes the lock if free (never waits). True while this session holds it. */
  async tryAcquire(): Promise<boolean> {
    const { rows } = await this.client.query<{ held: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext($1)::bigint) AS held",
      [this.name],
    );
    return rows[0]?.held === true;
  }

  /** Proves the session (and so the lock) is still alive; throws when it is not. */
  async check(): Promise<void> {
    if (this.lostError !== undefined) throw this.lostError;
    await this.client.query("SELECT 1");
  }

  get lost(): boolean {
    return this.lostError !== undefined;
  }

  /** Called once when the session's connection fails or ends. */
  onLost(fn: (err: Error) => void): void {
    if (this.lostError !== undefined) fn(this.lostError);
    else this.lostListeners.push(fn);
  }

  /** Ends the session, which releases the lock. */
  async close(): Promise<void> {
    this.lostListeners = [];
    await this.client.end().catch(() => undefined);
  }
}
