/**
 * One LISTEN connection per process, fanned out to any number of in-process
 * subscribers (the API's server-sent-event streams). Announcements that arrive
 * close together are coalesced per topic, so a scheduler committing thousands
 * of task transitions a second costs each browser a few messages a second
 * (change-coalescer.ts).
 * The connection comes back by itself after a database restart; subscribers
 * see the state change and refetch everything once it is back, because
 * announcements sent while it was down are lost.
 */
import pg from "pg";
import { type Clock, type ClockTimer, systemClock } from "../time/clock.ts";
import { CHANGE_CHANNEL, type Change, decodeChange } from "./change.ts";
import { ChangeCoalescer } from "./change-coalescer.ts";

export type ListenerState = "connecting" | "listening" | "down";

export interface ChangeListenerOptions {
  /** At most one delivery per this window while changes keep coming. Default 100 ms. */
  coalesceMs?: number;
  /**
   * After a quiet spell, how long the first change waits for others that
   * arrive with it (one transaction's announcements, a burst starting).
   * Default 25 ms.
   */
  leadMs?: number;
  /** First reconnect delay, doubled up to 10 s. Default 250 ms. */
  retryMs?: number;
  onError?: (err: Error) => void;
  /** Coalescing and reconnect delays run on this. Default: the process's own time. */
  clock?: Clock;
}

type Subscriber = (change: Change) => void;
type StateSubscriber = (state: ListenerState) => void;

export class ChangeListener {
  private client: pg.Client | undefined;
  private stateValue: ListenerState = "connecting";
  private readonly subscribers = new Set<Subscriber>();
  private readonly stateSubscribers = new Set<StateSubscriber>();
  private readonly coalescer: ChangeCoalescer;
  private retryTimer: ClockTimer | undefined;
  private retryDelay: number;
  private stopped = false;
  private readonly retryMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly databaseUrl: string,
    private readonly opts: ChangeListenerOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.coalescer = new ChangeCoalescer(
      { coalesceMs: opts.coalesceMs ?? 100, leadMs: opts.leadMs ?? 25, clock: this.clock },
      (change) => {
        for (const fn of this.subscribers) fn(change);
      },
    );
    this.retryMs = opts.retryMs ?? 250;
    this.retryDelay = this.retryMs;
    void this.connect();
  }

  get state(): ListenerState {
    return this.stateValue;
  }

  /** Calls `fn` with every (coalesced) change until the returned function is called. */
  subscribe(fn: Subscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  onState(fn: StateSubscriber): () => void {
    this.stateSubscribers.add(fn);
    return () => this.stateSubscribers.delete(fn);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.coalescer.stop();
    this.clock.clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private setState(state: ListenerState): void {
    if (state === this.stateValue) return;
    this.stateValue = state;
    for (const fn of this.stateSubscribers) fn(state);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.setState(this.stateValue === "listening" ? "down" : this.stateValue);
    const client = new pg.Client({ connectionString: this.databaseUrl });
    this.client = client;
    client.on("notification", (msg) => {
      if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
      const change = decodeChange(msg.payload);
      if (change) this.coalescer.add(change);
    });
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client, new Error("LISTEN connection ended")));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.client !== client) return;
      this.retryDelay = this.retryMs;
      this.setState("listening");
    } catch (err) {
      this.lost(client, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client || this.stopped) return;
    this.client = undefined;
    this.opts.onError?.(err);
    client.end().catch(() => undefined);
    this.setState("down");
    this.retryTimer = this.clock.setTimeout(() => void this.connect(), this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, 10_000);
  }
}
