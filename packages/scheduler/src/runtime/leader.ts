/**
 * Leader election among replicas sharing one PostgreSQL: the leader is the
 * replica whose dedicated session holds the scheduler's advisory lock.
 *
 *   standby ──try lock every retryMs──▶ acquired ──▶ lease row recorded ──▶ onElected()
 *   leading ──check + renew every renewMs──▶ session lost / check fails ──▶ onDeposed() ──▶ standby
 *
 * PostgreSQL releases a session lock the moment its session ends, so a
 * crashed or cut-off leader frees it for a standby within one retry period.
 * The `scheduler_leases` row only records who leads, for display.
 */
import { AdvisoryLockSession, type StorageGateway } from "@peloton/storage";
import type { Logger } from "./logger.ts";

export interface LeaderElectionOptions {
  databaseUrl: string;
  gateway: StorageGateway;
  /** Who this replica is, as the console shows it ("host:pid"). */
  holder: string;
  /** The lock's name (and the lease row's). Default "scheduler". */
  name?: string;
  /** How often a standby tries the lock. Default 1 s. */
  retryMs?: number;
  /** How often the leader proves its session alive and renews the row. Default 2 s. */
  renewMs?: number;
  log: Logger;
  onElected: () => Promise<void>;
  onDeposed: () => Promise<void>;
}

export class LeaderElection {
  private session: AdvisoryLockSession | undefined;
  private leadingValue = false;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly name: string;

  constructor(private readonly opts: LeaderElectionOptions) {
    this.name = opts.name ?? "scheduler";
  }

  get leading(): boolean {
    return this.leadingValue;
  }

  /** The lock session's server process (tests end it to simulate a lost leader). */
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
    while (!this.stopped) {
      try {
        const session = await AdvisoryLockSession.open(this.opts.databaseUrl, {
          name: `peloton:${this.name}`,
        });
        this.session = session;
        session.onLost(() => this.wake?.());
        while (!this.stopped && !session.lost && !(await session.tryAcquire())) {
          await this.sleep(this.opts.retryMs ?? 1_000);
        }
        if (!this.stopped && !session.lost) {
          await this.opts.gateway.cluster.recordLease(this.name, this.opts.holder);
          this.leadingValue = true;
          log.info("elected: this replica leads the scheduler");
          await this.opts.onElected();
          await this.holdWhileAlive(session);
        }
      } catch (err) {
        log.warn({ err }, "leader election: database session failed; retrying");
      }
      await this.depose(log);
      if (!this.stopped) await this.sleep(this.opts.retryMs ?? 1_000);
    }
  }

  private async holdWhileAlive(session: AdvisoryLockSession): Promise<void> {
    while (!this.stopped && !session.lost) {
      await this.sleep(this.opts.renewMs ?? 2_000);
      if (this.stopped || session.lost) return;
      await session.check();
      await this.opts.gateway.cluster.renewLease(this.name, this.opts.holder);
    }
  }

  private async depose(log: Logger): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (this.leadingValue) {
      this.leadingValue = false;
      log.warn(this.stopped ? "stepping down" : "lost the lease: stopping the leader's loops");
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
