/**
 * A scripted master for client tests: answers SUBSCRIBE with a chosen
 * SUBSCRIBED event, records every other call (headers and exact JSON), and
 * can be told to redirect or fail.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeRecord } from "../../src/index.ts";

export interface RecordedCall {
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface RecordingMaster {
  url: string;
  calls: RecordedCall[];
  subscribes: RecordedCall[];
  /** Answer the next non-subscribe calls with this status and body instead of 202. */
  failCallsWith(status: number, message: string): void;
  /** Send a raw event on the open stream. */
  push(event: unknown): void;
  waitForCalls(n: number, timeoutMs?: number): Promise<RecordedCall[]>;
  stop(): Promise<void>;
}

export async function startRecordingMaster(opts: {
  frameworkId: string;
  streamId?: string;
  redirectTo?: string;
  heartbeatSeconds?: number;
}): Promise<RecordingMaster> {
  const calls: RecordedCall[] = [];
  const subscribes: RecordedCall[] = [];
  let failure: { status: number; message: string } | undefined;
  let stream: http.ServerResponse | undefined;
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      if (opts.redirectTo !== undefined) {
        res.writeHead(307, { Location: opts.redirectTo });
        res.end();
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { type: string };
      const recorded = { headers: req.headers, body };
      if (body.type === "SUBSCRIBE") {
        subscribes.push(recorded);
        res.writeHead(200, {
          "Content-Type": "application/json",
          "Mesos-Stream-Id": opts.streamId ?? "stream-1",
        });
        res.write(
          encodeRecord(
            JSON.stringify({
              type: "SUBSCRIBED",
              subscribed: {
                framework_id: { value: opts.frameworkId },
                heartbeat_interval_seconds: opts.heartbeatSeconds ?? 15,
              },
            }),
          ),
        );
        stream = res;
        return;
      }
      calls.push(recorded);
      for (const w of waiters.splice(0)) w();
      if (failure !== undefined) {
        res.writeHead(failure.status, { "Content-Type": "text/plain" });
        res.end(failure.message);
        return;
      }
      res.writeHead(202);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    subscribes,
    failCallsWith: (status, message) => {
      failure = { status, message };
    },
    push: (event) => stream?.write(encodeRecord(JSON.stringify(event))),
    waitForCalls: async (n, timeoutMs = 3000) => {
      const deadline = Date.now() + timeoutMs;
      while (calls.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} calls, got ${calls.length}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return calls;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
