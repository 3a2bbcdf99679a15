/**
 * The connection core of the scheduler client: keeps one SUBSCRIBE stream open to the
 * leading master, turns its events into typed callbacks, and sends every
 * other call on separate keep-alive connections with the `Mesos-Stream-Id`.
 *
 * Connection life: subscribe → SUBSCRIBED (emitted with the framework id so
 * the caller can persist it) → events … → stream ends or goes silent past the
 * heartbeat rule → `disconnected` (forget every outstanding offer: no RESCIND
 * will come) → back off → re-subscribe with the same framework id → implicit
 * reconciliation. An ERROR event or an expired failover timeout is fatal.
 */
import type { Call } from "../proto/calls.ts";
import type { Event, FailureBody, MessageEventBody } from "../proto/events.ts";
import type {
  FrameworkInfo,
  InverseOffer,
  MasterInfo,
  Offer,
  OfferID,
  TaskStatus,
} from "../proto/messages.ts";
import type { OperationStatus } from "../proto/operations.ts";
import { Backoff, type BackoffOptions } from "./backoff.ts";
import { CallChannel } from "./call-channel.ts";
import { subscribeCall } from "./calls.ts";
import { TypedEmitter } from "./emitter.ts";
import { MesosError } from "./errors.ts";
import { HeartbeatWatchdog } from "./heartbeat.ts";
import { schedulerUrl } from "./http-post.ts";
import { openSubscription, type StreamEnd, type Subscription } from "./subscription.ts";

export interface MesosClientOptions {
  /** One or more masters ("http://host:5050"); tried in turn, 307s followed to the leader. */
  master: string | readonly string[];
  /** `id` is ignored: the framework id is `frameworkId` (stored by the caller). */
  frameworkInfo: FrameworkInfo;
  /** A framework id persisted from an earlier run: re-subscribe as that framework. */
  frameworkId?: string;
  /** Sent as `subscribe.suppressed_roles` when set; kept in step with suppress/revive. */
  suppressedRoles?: readonly string[];
  /** The stream is dead after this many heartbeat intervals of silence. Default 2. */
  heartbeatTimeoutFactor?: number;
  backoff?: BackoffOptions;
  /** Per-call timeout (Mesos suggests ~75 s), also the SUBSCRIBE headers timeout. */
  requestTimeoutMs?: number;
  /** Send an implicit RECONCILE after every SUBSCRIBED that reused a framework id. Default true. */
  reconcileOnResubscribe?: boolean;
  /** Call connections per master (each pipelines up to 16 calls). Default 8. */
  maxSockets?: number;
  /** Clock for the failover-timeout rule (ms). */
  now?: () => number;
}

export type ClientState =
  | "idle"
  | "connecting"
  | "subscribed"
  | "disconnected"
  | "stopped"
  | "failed";

export interface SubscribedInfo {
  frameworkId: string;
  streamId: string;
  heartbeatIntervalSeconds: number | undefined;
  masterInfo: MasterInfo | undefined;
  /** The leading master's scheduler endpoint. */
  masterUrl: string;
  /** True when the subscription reused a framework id (failover or restart). */
  resubscribed: boolean;
}

export interface DisconnectInfo {
  reason: string;
  error?: MesosError;
  /** Offers held when the stream dropped: all void now, no RESCIND will arrive for them. */
  voidedOffers: OfferID[];
}

export interface MesosClientEvents {
  subscribed: [SubscribedInfo];
  /** Every event, before the typed callbacks below. */
  event: [Event];
  offers: [Offer[]];
  inverseOffers: [InverseOffer[]];
  rescind: [OfferID];
  rescindInverseOffer: [OfferID];
  update: [TaskStatus];
  operationUpdate: [OperationStatus];
  message: [MessageEventBody];
  failure: [FailureBody];
  heartbeat: [];
  disconnected: [DisconnectInfo];
  /** Fatal: the client stops (ERROR event, failover timeout, refused subscription). */
  error: [MesosError];
}

export class SchedulerConnection extends TypedEmitter<MesosClientEvents> {
  private readonly masters: URL[];
  private readonly opts: MesosClientOptions;
  private readonly calls: CallChannel;
  private readonly backoff: Backoff;
  private readonly watchdog: HeartbeatWatchdog;
  private readonly now: () => number;
  private stateValue: ClientState = "idle";
  private frameworkIdValue: string | undefined;
  private suppressed: string[] | undefined;
  private leader: URL | undefined;
  private masterIndex = 0;
  private stream: Subscription | undefined;
  private streamId: string | undefined;
  /** Bumped per connection so events and errors of a dead stream are ignored. */
  private generation = 0;
  private disconnectedAt: number | undefined;
  private readonly offers = new Map<string, OfferID>();
  private wake: (() => void) | undefined;

  private firstSubscribed: { resolve(i: SubscribedInfo): void; reject(e: MesosError): void }[] = [];

  constructor(opts: MesosClientOptions) {
    super();
    const masters = typeof opts.master === "string" ? [opts.master] : [...opts.master];
    if (masters.length === 0) throw new TypeError("at least one master URL is required");
    this.masters = masters.map(schedulerUrl);
    this.opts = opts;
    this.frameworkIdValue = opts.frameworkId;
    this.suppressed = opts.suppressedRoles !== undefined ? [...opts.suppressedRoles] : undefined;
    this.calls = new CallChannel({
      timeoutMs: opts.requestTimeoutMs ?? 75_000,
      ...(opts.maxSockets !== undefined ? { connections: opts.maxSockets } : {}),
    });
    this.backoff = new Backoff(opts.backoff);
    this.now = opts.now ?? Date.now;
    this.watchdog = new HeartbeatWatchdog((silentMs) =>
      this.stream?.close(`no event for ${Math.round(silentMs)} ms (heartbeat missed)`),
    );
  }

  get state(): ClientState {
    return this.stateValue;
  }

  /** The framework id once known (given, or assigned by the master's SUBSCRIBED). */
  get frameworkId(): string | undefined {
    return this.frameworkIdValue;
  }

  /** Starts the connection loop; resolves at the first SUBSCRIBED, rejects if it fails fatally. */
  start(): Promise<SubscribedInfo> {
    const first = new Promise<SubscribedInfo>((resolve, reject) => {
      this.firstSubscribed.push({ resolve, reject });
    });
    if (this.stateValue === "idle") {
      this.stateValue = "connecting";
      void this.connectLoop();
    }
    return first;
  }

  /** Closes the stream and every call connection. The framework lives on (failover). */
  async stop(): Promise<void> {
    if (this.stateValue === "stopped") return;
    this.stateValue = "stopped";
    this.generation++;
    this.watchdog.stop();
    this.stream?.close("client stopped");
    this.stream = undefined;
    this.wake?.();
    void this.calls.close();
    this.rejectWaiters(new MesosError("stopped"));
  }

  /**
   * Sends one call on the current subscription. Resolves on `202 Accepted`;
   * rejects with a MesosError carrying the status and the master's message.
   */
  call(call: Call): Promise<void> {
    const streamId = this.streamId;
    const url = this.leader;
    if (this.stateValue !== "subscribed" || streamId === undefined || url === undefined) {
      return Promise.reject(new MesosError("not_subscribed", { callType: call.type }));
    }
    const generation = this.generation;
    this.trackOffers(call);
    return this.calls.post(url, JSON.stringify(call), streamId, call.type).then(
      () => {},
      (err: unknown) => {
        // 403 = the master considers us unsubscribed; a stream-id 400 = our stream is stale.
        if (
          err instanceof MesosError &&
          generation === this.generation &&
          (err.kind === "forbidden" || (err.kind === "bad_request" && /stream/i.test(err.message)))
        ) {
          this.stream?.close(`master rejected ${call.type}: ${err.masterMessage ?? err.kind}`);
        }
        throw err;
      },
    );
  }

  /** Roles currently suppressed as far as this client knows (sent on re-subscribe). */
  noteSuppressed(roles: readonly string[] | undefined, suppressed: boolean): void {
    const all = this.opts.frameworkInfo.roles ?? [this.opts.frameworkInfo.role ?? "*"];
    const target = roles !== undefined && roles.length > 0 ? roles : all;
    const current = new Set(this.suppressed ?? []);
    for (const role of target) {
      if (suppressed) current.add(role);
      else current.delete(role);
    }
    this.suppressed = [...current];
  }

  private async connectLoop(): Promise<void> {
    while (this.stateValue === "connecting" || this.stateValue === "disconnected") {
      const end = await this.connectOnce();
      if (this.isClosed()) return;
      this.onStreamEnd(end);
      if (this.isClosed()) return;
      const expired = this.failoverExpired();
      if (expired !== undefined) {
        this.fail(expired);
        return;
      }
      await this.sleep(this.backoff.next());
    }
  }

  /** One subscription, from POST to end of stream. Never throws. */
  private async connectOnce(): Promise<StreamEnd> {
    const url = this.leader ?? this.masters[this.masterIndex % this.masters.length]!;
    const generation = ++this.generation;
    const call = subscribeCall(this.opts.frameworkInfo, this.frameworkIdValue, this.suppressed);
    let stream: Subscription;
    try {
      stream = await openSubscription(url, call, this.opts.requestTimeoutMs ?? 75_000, {
        onActivity: () => {
          if (generation === this.generation) this.watchdog.beat();
        },
        onEvent: (event) => {
          if (generation === this.generation) this.dispatch(event, stream);
        },
      });
    } catch (err) {
      const error = err instanceof MesosError ? err : new MesosError("network", { cause: err });
      // A refused subscription (4xx but 403 from a stale master or 503) will not heal by retrying.
      if (!error.retryable && error.kind !== "forbidden" && error.kind !== "too_many_redirects") {
        this.fail(error);
      }
      this.leader = undefined;
      this.masterIndex++;
      return { reason: `subscribe failed: ${error.message}`, error };
    }
    if (generation !== this.generation || this.isClosed()) {
      stream.close("client stopped");
      return { reason: "client stopped" };
    }
    this.stream = stream;
    this.leader = stream.url;
    const end = await stream.ended;
    if (this.stream === stream) this.stream = undefined;
    return end;
  }

  private dispatch(event: Event, stream: Subscription): void {
    if (event.type === "SUBSCRIBED") this.onSubscribed(event.subscribed, stream);
    else if (this.stateValue !== "subscribed" && event.type !== "ERROR") {
      stream.close(`got ${event.type} before SUBSCRIBED`);
      return;
    }
    this.emit("event", event);
    switch (event.type) {
      case "SUBSCRIBED":
        return;
      case "OFFERS": {
        const offers = event.offers.offers ?? [];
        for (const o of offers) this.offers.set(o.id.value, o.id);
        this.emit("offers", offers);
        return;
      }
      case "INVERSE_OFFERS":
        this.emit("inverseOffers", event.inverse_offers.inverse_offers ?? []);
        return;
      case "RESCIND":
        this.offers.delete(event.rescind.offer_id.value);
        this.emit("rescind", event.rescind.offer_id);
        return;
      case "RESCIND_INVERSE_OFFER":
        this.emit("rescindInverseOffer", event.rescind_inverse_offer.inverse_offer_id);
        return;
      case "UPDATE":
        this.emit("update", event.update.status);
        return;
      case "UPDATE_OPERATION_STATUS":
        this.emit("operationUpdate", event.update_operation_status.status);
        return;
      case "MESSAGE":
        this.emit("message", event.message);
        return;
      case "FAILURE":
        this.emit("failure", event.failure);
        return;
      case "ERROR":
        // Fatal per the docs: the master closes the stream; do not blindly re-subscribe.
        this.fail(
          new MesosError("framework_error", {
            masterMessage: event.error.message,
            url: stream.url.href,
          }),
        );
        return;
      case "HEARTBEAT":
        this.emit("heartbeat");
        return;
    }
  }

  private onSubscribed(
    body: Extract<Event, { type: "SUBSCRIBED" }>["subscribed"],
    stream: Subscription,
  ): void {
    const resubscribed = this.frameworkIdValue !== undefined;
    this.frameworkIdValue = body.framework_id.value;
    this.streamId = stream.streamId;
    this.stateValue = "subscribed";
    this.disconnectedAt = undefined;
    this.backoff.reset();
    const interval = body.heartbeat_interval_seconds;
    if (interval !== undefined && interval > 0) {
      this.watchdog.start(interval, this.opts.heartbeatTimeoutFactor ?? 2);
    }
    const info: SubscribedInfo = {
      frameworkId: body.framework_id.value,
      streamId: stream.streamId,
      heartbeatIntervalSeconds: interval,
      masterInfo: body.master_info,
      masterUrl: stream.url.href,
      resubscribed,
    };
    this.emit("subscribed", info);
    for (const w of this.firstSubscribed.splice(0)) w.resolve(info);
    if (resubscribed && this.opts.reconcileOnResubscribe !== false) {
      // Failures surface as a dropped stream; the next SUBSCRIBED reconciles again.
      this.call({ type: "RECONCILE", framework_id: body.framework_id, reconcile: {} }).catch(
        () => {},
      );
    }
  }

  private onStreamEnd(end: StreamEnd): void {
    this.watchdog.stop();
    const wasSubscribed = this.stateValue === "subscribed";
    this.streamId = undefined;
    this.stateValue = "disconnected";
    if (wasSubscribed) this.disconnectedAt = this.now();
    const voidedOffers = [...this.offers.values()];
    this.offers.clear();
    this.emit("disconnected", {
      reason: end.reason,
      ...(end.error !== undefined ? { error: end.error } : {}),
      voidedOffers,
    });
  }

  private failoverExpired(): MesosError | undefined {
    const timeout = this.opts.frameworkInfo.failover_timeout;
    if (this.disconnectedAt === undefined || timeout === undefined || timeout <= 0)
      return undefined;
    const gone = this.now() - this.disconnectedAt;
    if (gone <= timeout * 1000) return undefined;
    return new MesosError("failover_timeout_exceeded", {
      masterMessage: `disconnected for ${Math.round(gone / 1000)} s > failover_timeout ${timeout} s`,
    });
  }

  private trackOffers(call: Call): void {
    const ids =
      call.type === "ACCEPT"
        ? call.accept.offer_ids
        : call.type === "DECLINE"
          ? call.decline.offer_ids
          : undefined;
    for (const id of ids ?? []) this.offers.delete(id.value);
  }

  private fail(error: MesosError): void {
    if (this.isClosed()) return;
    this.stateValue = "failed";
    this.generation++;
    this.watchdog.stop();
    this.stream?.close(error.message);
    this.stream = undefined;
    this.wake?.();
    void this.calls.close();
    this.rejectWaiters(error);
    this.emit("error", error);
  }

  private rejectWaiters(error: MesosError): void {
    for (const w of this.firstSubscribed.splice(0)) w.reject(error);
  }

  private isClosed(): boolean {
    return this.stateValue === "stopped" || this.stateValue === "failed";
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
