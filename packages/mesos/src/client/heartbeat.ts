/**
 * The disconnection rule: the master sends HEARTBEAT every
 * `heartbeat_interval_seconds`; a stream on which nothing (heartbeats
 * included) arrived for `factor` intervals is dead even if TCP says
 * otherwise (a partition keeps the socket open).
 *
 * With the default factor 2 the stream is declared dead as soon as one
 * expected heartbeat is missed by a whole interval. Scheduled as one timer
 * per timeout rather than one per event, so a busy stream costs nothing.
 */
export class HeartbeatWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private lastSeen = 0;
  private timeoutMs = 0;

  constructor(
    private readonly onMissed: (silentForMs: number) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(intervalSeconds: number, factor: number): void {
    this.stop();
    this.timeoutMs = Math.max(1, intervalSeconds * factor * 1000);
    this.lastSeen = this.now();
    this.arm(this.timeoutMs);
  }

  /** Anything received on the stream counts as a sign of life. */
  beat(): void {
    this.lastSeen = this.now();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => this.check(), delayMs);
    this.timer.unref();
  }

  private check(): void {
    const silent = this.now() - this.lastSeen;
    if (silent >= this.timeoutMs) {
      this.timer = undefined;
      this.onMissed(silent);
    } else {
      this.arm(this.timeoutMs - silent);
    }
  }
}
