/**
 * Exponential backoff with jitter for re-subscription (the Mesos docs advise
 * backing off up to ~15 s so a recovering master is not flooded).
 */
export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  /** Injected for deterministic tests; default Math.random. */
  random?: () => number;
}

export class Backoff {
  private attempt = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly random: () => number;

  constructor(opts: BackoffOptions = {}) {
    this.initialMs = opts.initialMs ?? 250;
    this.maxMs = opts.maxMs ?? 15_000;
    this.random = opts.random ?? Math.random;
  }

  /** The delay before the next attempt: base × 2^n capped, then 50–100 % of it. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(base * (0.5 + this.random() / 2));
  }

  reset(): void {
    this.attempt = 0;
  }
}
