/**
 * The connections every non-subscribe call travels on: one undici pool per
 * master, keep-alive and HTTP/1.1 pipelining (the Mesos master, libprocess,
 * answers pipelined requests in order). This is the hot path of a busy
 * scheduler, one ACKNOWLEDGE per status update: undici costs a fraction of
 * `node:http`'s ClientRequest per call, and pipelining lets a burst of calls
 * share a few sockets instead of waiting for a free one.
 *
 * Calls made in one turn of the event loop leave in one write per socket:
 * the sockets are corked at the turn's first call (or read of answers, which
 * frees pipeline slots that undici fills from its queue) and uncorked at the
 * next turn (undici corks around each request, and a corked socket counts
 * nestings), so the 500 acknowledgements of a committed batch cost a few
 * system calls, not 500. POSTs are marked idempotent and non-blocking, or
 * undici would not pipeline them at all.
 *
 * Except an ACCEPT (and a MESSAGE): undici sends a pipelined idempotent
 * request again on a new connection when the one it went out on closes
 * before its answer, and the master may have taken it already. A second
 * ACCEPT of a launch names offers the first one used, and the master
 * answers it with TASK_LOST (REASON_INVALID_OFFERS) for tasks the first
 * one started: the scheduler would replace a run that is running (seen in
 * leader-kill.int.test.ts, a connection cut under a burst of launches).
 * Those calls go on connections of their own, one call at a time, never
 * repeated: a cut one fails with "network", and the launcher reconciles.
 */
import type { Socket } from "node:net";
import { buildConnector, Pool } from "undici";
import { kindForStatus, MesosError, type MesosErrorFacts } from "./errors.ts";
import { redirectTarget } from "./http-post.ts";

export interface CallChannelOptions {
  /** Sockets per master. Default 8. */
  connections?: number;
  /**
   * Requests in flight per socket. Default 256: a committed batch of status
   * updates is acknowledged in one turn, and calls beyond the sockets' depth
   * wait in undici's queue and leave one write per answer received (measured:
   * a tenth of the scheduler's CPU, and of mesos-sim's, at depth 16).
   */
  pipelining?: number;
  /** Time allowed for the answer of one call. */
  timeoutMs: number;
  maxRedirects?: number;
}

const MAX_ERROR_BODY = 64 * 1024;

/** Calls the master must not take twice (see the file comment). */
const ONCE_ONLY = new Set(["ACCEPT", "MESSAGE"]);
/** Connections per master for them: a round's launches go out side by side. */
const ONCE_ONLY_CONNECTIONS = 16;

interface Answer {
  status: number;
  location: string | undefined;
  text: string;
}

function headerValue(raw: Buffer[] | string[] | null, name: string): string | undefined {
  if (raw === null) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (String(raw[i]).toLowerCase() === name) return String(raw[i + 1]);
  }
  return undefined;
}

export class CallChannel {
  private readonly pools = new Map<string, Pool>();
  private readonly sockets = new Set<Socket>();
  private readonly connect = buildConnector({});
  private corkedSockets: Socket[] = [];
  private uncorkTimer: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(private readonly opts: CallChannelOptions) {}

  /**
   * POSTs one call; resolves with the URL that answered `2xx` (after
   * following `307` to the leader), rejects with a MesosError otherwise.
   */
  async post(url: URL, body: string, streamId: string, callType: string): Promise<URL> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const facts: MesosErrorFacts = { url: target.href, callType };
      if (this.closed) throw new MesosError("stopped", facts);
      let answer: Answer;
      try {
        answer = await this.send(target, body, streamId, ONCE_ONLY.has(callType));
      } catch (err) {
        throw toMesosError(err, facts, this.closed);
      }
      const { status, location, text } = answer;
      if (status >= 200 && status < 300) return target;
      if ((status === 307 || status === 308) && location !== undefined) {
        if (hop >= (this.opts.maxRedirects ?? 5)) {
          throw new MesosError("too_many_redirects", { ...facts, status });
        }
        target = redirectTarget(location, target);
        continue;
      }
      throw new MesosError(kindForStatus(status), {
        ...facts,
        status,
        masterMessage: text.slice(0, MAX_ERROR_BODY).trim(),
      });
    }
  }

  /**
   * One exchange through undici's dispatcher with a minimal handler: no
   * response stream is built for the empty body of a 202, which is most of
   * what this channel carries.
   */
  private send(url: URL, body: string, streamId: string, onceOnly: boolean): Promise<Answer> {
    return new Promise((resolve, reject) => {
      let status = 0;
      let location: string | undefined;
      const parts: Buffer[] = [];
      this.cork();
      this.pool(url, onceOnly).dispatch(
        {
          path: `${url.pathname}${url.search}`,
          method: "POST",
          headers: {
            // Exactly this value: Mesos answers 415 to "application/json; charset=utf-8".
            "content-type": "application/json",
            accept: "application/json",
            "mesos-stream-id": streamId,
          },
          body,
          // undici pipelines only idempotent, non-blocking requests, and a POST
          // is neither by default. A pipelined call whose connection broke
          // before its answer is sent again on a new one: harmless for an
          // acknowledgement, a decline, a kill or a reconciliation, which the
          // master takes twice without effect. A once-only call is neither
          // pipelined nor sent again: it fails with "network", which the
          // launcher treats as "may or may not have arrived" and reconciles.
          idempotent: !onceOnly,
          blocking: false,
          headersTimeout: this.opts.timeoutMs,
          bodyTimeout: this.opts.timeoutMs,
        },
        {
          onConnect() {},
          onHeaders(statusCode, rawHeaders) {
            status = statusCode;
            if (statusCode >= 300 && statusCode < 400)
              location = headerValue(rawHeaders, "location");
            return true;
          },
          onData(chunk) {
            if (status >= 300) parts.push(chunk);
            return true;
          },
          onComplete() {
            resolve({ status, location, text: Buffer.concat(parts).toString("utf8") });
          },
          onError(err) {
            reject(err);
          },
        },
      );
      this.uncorkNextTurn();
    });
  }

  /** Corks the open sockets until `uncorkNextTurn`'s moment, unless already corked. */
  private cork(): void {
    if (this.uncorkTimer !== undefined) return;
    this.corkedSockets = [...this.sockets];
    for (const socket of this.corkedSockets) socket.cork();
  }

  /**
   * Uncorks at the next turn of the event loop; each call queues it again, so
   * it runs after undici's own deferred write of a request on a socket that
   * was idle.
   */
  private uncorkNextTurn(): void {
    if (this.uncorkTimer !== undefined) clearImmediate(this.uncorkTimer);
    this.uncorkTimer = setImmediate(() => {
      this.uncorkTimer = undefined;
      for (const socket of this.corkedSockets) socket.uncork();
      this.corkedSockets = [];
    });
  }

  /** Drops every connection; calls in flight fail with `stopped`. */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
  }

  private pool(url: URL, onceOnly: boolean): Pool {
    const key = onceOnly ? `${url.origin} once-only` : url.origin;
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new Pool(url.origin, {
        connections: onceOnly ? ONCE_ONLY_CONNECTIONS : (this.opts.connections ?? 8),
        pipelining: onceOnly ? 1 : (this.opts.pipelining ?? 256),
        keepAliveTimeout: 30_000,
        connect: (options, callback) =>
          this.connect(options, (...args) => {
            // On failure undici passes the error alone (no socket, not even null).
            const socket = args[1];
            if (socket) {
              this.sockets.add(socket);
              socket.once("close", () => this.sockets.delete(socket));
              // Answers free pipeline slots, and undici writes a queued call
              // into each as it reads them: corked too, they leave together.
              // (Registered before undici's own listener, so it runs first.)
              socket.on("readable", () => {
                this.cork();
                this.uncorkNextTurn();
              });
            }
            callback(...args);
          }),
      });
      this.pools.set(key, pool);
    }
    return pool;
  }
}

function toMesosError(err: unknown, facts: MesosErrorFacts, closed: boolean): MesosError {
  if (err instanceof MesosError) return err;
  if (closed) return new MesosError("stopped", { ...facts, cause: err });
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return new MesosError("timeout", { ...facts, cause: err });
  }
  return new MesosError("network", { ...facts, cause: err });
}
