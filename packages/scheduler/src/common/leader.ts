/**
 * Leader election among replicas sharing one PostgreSQL: the leader is the
 * replica whose lease session (its own connection) holds the scheduler's
 * advisory lock and has claimed the lease's next epoch.
 *
 *   standby ──try lock every retryMs──▶ acquired ──▶ claim: epoch + 1 ──▶ onElected(term)
 *   leading ──renew every renewMs (≤ queryTimeoutMs each)──▶ session lost, lease moved on
 *           or no answer in time ──▶ term aborted, onDeposed() ──▶ standby
 *
 * PostgreSQL releases a session lock the moment its session ends, so a
 * crashed or cut-off leader frees it for a standby within one retry period.
 * Losing the session is noticed at once (the connection's error/end events);
 * a session that stops answering is noticed within renewMs + queryTimeoutMs.
 * The epoch fences the leader's writes in the database (storage's
 * leases/fence.ts), so a leader that learns of its loss late still cannot
 * write after its successor was elected.
 */
import { LeaseSession } from "@peloton/storage";
import type { Logger } from "./logger.ts";

/** One tenure: the epoch its writes are fenced by, aborted when it ends. */
export interface LeaderTerm {
  epoch: bigint;
  signal: AbortSignal;
}

export interface LeaderElectionOptions {
  databaseUrl: string;
  /** Who this replica is, as the console shows it ("host:pid"). */
  holder: string;
  /** The lease's name (the lock's and the lease row's). Default "scheduler". */
  name?: string;
  /** How often a standby tries the lock (and retries after a failure). Default 500 ms. */
  retryMs?: number;
  /** How often the leader proves its lease and renews the row. Default 400 ms. */
  renewMs?: number;
  /** A renewal without an answer after this long deposes the leader. Default 1 s. */
  queryTimeoutMs?: number;
  log: Logger;
  onElected: (term: LeaderTerm) => Promise<void>;
  /** Must be quick: the deposed leader has to stop within the lease's 2 s promise. */
  onDeposed: () => Promise<void>;
}

export class LeaderElection {
  private session: LeaseSession | undefined;
  private term: { epoch: bigint; abort: AbortController } | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly name: string;

  constructor(private readonly opts: LeaderElectionOptions) {
    this.name = opts.name ?? "scheduler";
  }

  get leading(): boolean {
    return this.term !== undefined;
  }

  /** The epoch of this replica's term; undefined on a standby. */
  get epoch(): bigint | undefined {
    return this.term?.epoch;
  }

  /** The lease session's server process (tests end it to simulate a lost leader). */
  get backendPid(): number | undefined {
    return this.session?.backendPid;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops leading (onDeposed runs) and releases the lock. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const log = this.opts.log.child({ component: "leader-election", holder: this.opts.holder });
    let failures = 0;
    while (!this.stopped) {
      try {
        const session = await LeaseSession.open(this.opts.databaseUrl, {
          lease: this.name,
          ...(this.opts.queryTimeoutMs !== undefined
            ? { queryTimeoutMs: this.opts.queryTimeoutMs }
            : {}),
        });
        this.session = session;
        session.onLost(() => this.wake?.());
        failures = 0;
        while (!this.stopped && !session.lost && !(await session.tryAcquire())) {
          await this.sleep(this.opts.retryMs ?? 500);
        }
        if (!this.stopped && !session.lost) {
          const epoch = await session.claim(this.opts.holder);
          const abort = new AbortController();
          this.term = { epoch, abort };
          log.info({ epoch: epoch.toString() }, "elected: this replica leads the scheduler");
          await this.opts.onElected({ epoch, signal: abort.signal });
          await this.holdWhileAlive(session, epoch, log);
        }
      } catch (err) {
        // One line per outage, not one per retry: the standby retries twice a second.
        if (failures++ === 0)
          log.warn({ err: String(err) }, "leader election: database session failed; retrying");
      }
      await this.depose(log);
      if (!this.stopped) await this.sleep(this.opts.retryMs ?? 500);
    }
  }

  private async holdWhileAlive(session: LeaseSession, epoch: bigint, log: Logger): Promise<void> {
    while (!this.stopped && !session.lost) {
      await this.sleep(this.opts.renewMs ?? 400);
      if (this.stopped || session.lost) return;
      if (!(await session.renew(epoch, this.opts.holder))) {
        log.warn({ epoch: epoch.toString() }, "the lease moved on to another epoch");
        return;
      }
    }
  }

  private async depose(log: Logger): Promise<void> {
    const session = this.session;
    this.session = undefined;
    const term = this.term;
    if (term !== undefined) {
      this.term = undefined;
      term.abort.abort();
      log.warn(
        { epoch: term.epoch.toString() },
        this.stopped ? "stepping down" : "lost the lease: stopping the leader's loops",
      );
      await this.opts
        .onDeposed()
        .catch((err: unknown) => log.error({ err }, "stopping the leader's loops failed"));
    }
    await session?.close();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
