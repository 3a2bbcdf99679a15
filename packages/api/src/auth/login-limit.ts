/**
 * Failed sign-ins per login, in memory: after MAX_FAILURES within
 * WINDOW_MS a login is refused (429) until the oldest failure ages out,
 * whatever address the attempts come from. better-auth's own rate limit
 * covers each address; this covers one account attacked from many.
 */
export const LOGIN_FAILURE_LIMIT = { max: 10, windowMs: 15 * 60_000 } as const;
/** Logins tracked at most; the oldest are forgotten first (bounded memory under a spray). */
const MAX_TRACKED = 10_000;

export class LoginFailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: { max: number; windowMs: number } = LOGIN_FAILURE_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(login: string): number[] {
    const since = this.now() - this.limit.windowMs;
    const kept = (this.failures.get(login) ?? []).filter((t) => t > since);
    if (kept.length) this.failures.set(login, kept);
    else this.failures.delete(login);
    return kept;
  }

  /** Seconds until `login` may try again, or 0 when it may now. */
  retryAfterSeconds(login: string): number {
    const recent = this.recent(login);
    if (recent.length < this.limit.max) return 0;
    const oldest = recent[recent.length - this.limit.max] ?? this.now();
    return Math.max(1, Math.ceil((oldest + this.limit.windowMs - this.now()) / 1000));
  }

  recordFailure(login: string): void {
    const recent = this.recent(login);
    recent.push(this.now());
    this.failures.delete(login);
    this.failures.set(login, recent.slice(-this.limit.max));
    if (this.failures.size > MAX_TRACKED) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  recordSuccess(login: string): void {
    this.failures.delete(login);
  }
}
