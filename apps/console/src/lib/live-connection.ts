/**
 * The live stream's connection, kept honest: it is live only while messages
 * arrive. The server sends a heartbeat every couple of seconds, so silence
 * for about two heartbeats means the server is gone even when no error
 * reaches the browser (a hung process, a dropped network path). A lost
 * stream is closed and opened again after a backoff (1 s, 2 s, 4 s … 10 s),
 * never left to the browser's own EventSource retry, which stops for good
 * on the first answer that is not an event stream (a restarting server's
 * 502/503). Whoever opens the stream gets every message; on reconnect the
 * server's first message is a `resync`, after which the page refetches what
 * it shows.
 *
 * No React here: the provider in live.tsx drives it, tests drive it with fake
 * timers.
 */
import type { LiveFeedState, LiveMessage } from "@peloton/api";

export type LiveStatus = "connecting" | "live" | "offline";

/** Why the view is not live: the server does not answer, or it answers but cannot hear the database. */
export type OfflineReason = "server" | "database";

export interface LiveState {
  status: LiveStatus;
  /** Set while offline. */
  reason: OfflineReason | null;
  /** When the view stopped being live (ms since epoch); kept through reconnect attempts. */
  offlineSince: number | null;
  /** When the next reconnect attempt starts, while one is waiting. */
  nextAttemptAt: number | null;
}

export interface StreamHandlers {
  onData: (message: LiveMessage) => void;
  /** The stream broke: an error, or the server ended it. */
  onLost: (cause?: unknown) => void;
}

/** Opens the stream; the returned function closes it (and no handler is called after). */
export type OpenStream = (handlers: StreamHandlers) => () => void;

export interface LiveConnectionOptions {
  open: OpenStream;
  onMessage: (message: LiveMessage) => void;
  onState: (state: LiveState) => void;
  /** First reconnect delay, doubled per failed attempt. Default 1 s. */
  firstRetryMs?: number;
  /** Longest reconnect delay. Default 10 s. */
  maxRetryMs?: number;
}

/** Until the server says otherwise (its first heartbeat names the interval). */
const DEFAULT_HEARTBEAT_MS = 2_000;
/** Silence allowed beyond two heartbeats: a busy server's timers run a little late. */
const SILENCE_GRACE_MS = 500;

export const INITIAL_LIVE_STATE: LiveState = {
  status: "connecting",
  reason: null,
  offlineSince: null,
  nextAttemptAt: null,
};

export class LiveConnection {
  private state: LiveState = INITIAL_LIVE_STATE;
  private close: (() => void) | undefined;
  /** Bumped whenever a stream is closed: handlers of an older stream are ignored. */
  private generation = 0;
  private failures = 0;
  private heartbeatMs = DEFAULT_HEARTBEAT_MS;
  private lastHeardAt = 0;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;

  constructor(private readonly opts: LiveConnectionOptions) {
    this.firstRetryMs = opts.firstRetryMs ?? 1_000;
    this.maxRetryMs = opts.maxRetryMs ?? 10_000;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.closeStream();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** Skip the wait for the next attempt (the browser says the network is back). */
  retryNow(): void {
    if (this.stopped || this.retryTimer === undefined) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.connect();
  }

  private get silenceMs(): number {
    return 2 * this.heartbeatMs + SILENCE_GRACE_MS;
  }

  private connect(): void {
    this.closeStream();
    this.retryTimer = undefined;
    if (this.state.nextAttemptAt !== null) this.setState({ ...this.state, nextAttemptAt: null });
    const generation = ++this.generation;
    const current = () => generation === this.generation && !this.stopped;
    this.lastHeardAt = Date.now();
    this.armWatchdog();
    this.close = this.opts.open({
      onData: (message) => {
        if (current()) this.heard(message);
      },
      onLost: () => {
        if (current()) this.lost();
      },
    });
  }

  private closeStream(): void {
    this.generation++;
    clearTimeout(this.watchdog);
    this.watchdog = undefined;
    const close = this.close;
    this.close = undefined;
    close?.();
  }

  private heard(message: LiveMessage): void {
    this.lastHeardAt = Date.now();
    if (message.kind === "heartbeat") {
      this.heartbeatMs = message.everyMs;
      this.feed(message.feed);
    } else if (message.kind === "resync") {
      // The server sends a resync when its feed (re)starts listening.
      this.feed("listening");
    }
    this.armWatchdog();
    this.opts.onMessage(message);
  }

  private feed(state: LiveFeedState): void {
    if (state === "listening") {
      this.failures = 0;
      this.setState({ status: "live", reason: null, offlineSince: null, nextAttemptAt: null });
    } else if (state === "down") {
      this.setState({
        status: "offline",
        reason: "database",
        offlineSince: this.state.offlineSince ?? Date.now(),
        nextAttemptAt: null,
      });
    } else {
      // A server that has just started and not yet reached the database.
      this.setState({ ...this.state, status: "connecting", reason: null, nextAttemptAt: null });
    }
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    // Timers in a background tab may fire late, never early: measure the silence itself.
    const wait = Math.max(0, this.lastHeardAt + this.silenceMs - Date.now());
    this.watchdog = setTimeout(() => {
      if (Date.now() - this.lastHeardAt >= this.silenceMs) this.lost();
      else this.armWatchdog();
    }, wait);
  }

  private lost(): void {
    this.closeStream();
    if (this.stopped) return;
    const delay = Math.min(this.firstRetryMs * 2 ** this.failures, this.maxRetryMs);
    this.failures++;
    const now = Date.now();
    this.setState({
      status: "offline",
      reason: "server",
      offlineSince: this.state.offlineSince ?? now,
      nextAttemptAt: now + delay,
    });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private setState(next: LiveState): void {
    const s = this.state;
    if (
      s.status === next.status &&
      s.reason === next.reason &&
      s.offlineSince === next.offlineSince &&
      s.nextAttemptAt === next.nextAttemptAt
    )
      return;
    this.state = next;
    this.opts.onState(next);
  }
}
