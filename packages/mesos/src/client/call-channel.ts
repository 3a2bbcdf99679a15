/**
 * The connections every non-subscribe call travels on: one undici pool per
 * master, keep-alive and HTTP/1.1 pipelining (the Mesos master, libprocess,
 * answers pipelined requests in order). This is the hot path of a busy
 * scheduler, one ACKNOWLEDGE per status update: undici costs a fraction of
 * `node:http`'s ClientRequest per call, and pipelining lets a burst of calls
 * share a few sockets instead of waiting for a free one.
 */
import { Pool } from "undici";
import { kindForStatus, MesosError, type MesosErrorFacts } from "./errors.ts";
import { redirectTarget } from "./http-post.ts";

export interface CallChannelOptions {
  /** Sockets per master. Default 8. */
  connections?: number;
  /** Requests in flight per socket. Default 16. */
  pipelining?: number;
  /** Time allowed for the answer of one call. */
  timeoutMs: number;
  maxRedirects?: number;
}

const MAX_ERROR_BODY = 64 * 1024;

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
        answer = await this.send(target, body, streamId);
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
  private send(url: URL, body: string, streamId: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      let status = 0;
      let location: string | undefined;
      const parts: Buffer[] = [];
      this.pool(url).dispatch(
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
    });
  }

  /** Drops every connection; calls in flight fail with `stopped`. */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
  }

  private pool(url: URL): Pool {
    let pool = this.pools.get(url.origin);
    if (pool === undefined) {
      pool = new Pool(url.origin, {
        connections: this.opts.connections ?? 8,
        pipelining: this.opts.pipelining ?? 16,
        keepAliveTimeout: 30_000,
      });
      this.pools.set(url.origin, pool);
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
