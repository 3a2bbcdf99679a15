/**
 * The call channel against a bare TCP server that answers every pipelined
 * POST with 202: calls made in one turn of the event loop reach the master
 * in one write, and every one of them still gets its own answer.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CallChannel } from "../src/client/call-channel.ts";

const ACCEPTED = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";

/**
 * A bare TCP master at /api/v1/scheduler: `onConnection` decides what each
 * connection does with the bytes it reads.
 */
async function listen(onConnection: (socket: Socket) => void) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: new URL(`http://127.0.0.1:${port}/api/v1/scheduler`),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

interface Master {
  url: URL;
  /** How many reads delivered request bytes, and how many requests they held. */
  reads: number[];
  close: () => Promise<void>;
}

async function startMaster(): Promise<Master> {
  const reads: number[] = [];
  const master = await listen((socket) =>
    socket.on("data", (chunk: Buffer) => {
      const requests = chunk.toString("latin1").split("POST ").length - 1;
      reads.push(requests);
      socket.write(ACCEPTED.repeat(requests));
    }),
  );
  return { ...master, reads };
}

describe("CallChannel", () => {
  let master: Master | undefined;
  let channel: CallChannel | undefined;
  afterEach(async () => {
    await channel?.close();
    await master?.close();
  });

  it("sends the calls of one event-loop turn in one write", async () => {
    master = await startMaster();
    channel = new CallChannel({ connections: 1, pipelining: 64, timeoutMs: 5_000 });
    const body = JSON.stringify({ type: "ACKNOWLEDGE" });
    // The connection is open before the burst (a new socket cannot be corked ahead of time).
    await channel.post(master.url, body, "stream-1", "ACKNOWLEDGE");
    master.reads.length = 0;

    const burst = Array.from({ length: 40 }, () =>
      channel!.post(master!.url, body, "stream-1", "ACKNOWLEDGE"),
    );
    const answered = await Promise.all(burst);

    expect(answered.map((u) => u.href)).toEqual(Array(40).fill(master.url.href));
    expect(master.reads).toEqual([40]);
  });
});

/**
 * A master that takes every request it reads and, on its first `cuts`
 * connections, closes the connection without answering (a cut after the
 * calls arrived); on later ones it answers each with 202. `seen` counts
 * each body it took.
 */
async function startCuttingMaster(cuts: number) {
  const seen = new Map<string, number>();
  let connections = 0;
  const master = await listen((socket) => {
    const cut = ++connections <= cuts;
    socket.on("data", (chunk: Buffer) => {
      const bodies = chunk.toString("latin1").match(/\{[^}]*\}/g) ?? [];
      for (const b of bodies) seen.set(b, (seen.get(b) ?? 0) + 1);
      if (cut) socket.destroy();
      else socket.write(ACCEPTED.repeat(bodies.length));
    });
  });
  return { ...master, seen };
}

describe("CallChannel on a cut connection", () => {
  let master: Awaited<ReturnType<typeof startCuttingMaster>> | undefined;
  let channel: CallChannel | undefined;
  afterEach(async () => {
    await channel?.close();
    await master?.close();
  });

  const settle = (p: Promise<URL>) =>
    p.then(
      () => "answered",
      (err: Error & { kind?: string }) => err.kind ?? err.message,
    );

  it("sends acknowledgements behind the cut one again (the master takes them twice harmlessly)", async () => {
    master = await startCuttingMaster(1);
    channel = new CallChannel({ connections: 1, pipelining: 8, timeoutMs: 5_000 });
    const acks = [1, 2, 3].map((n) =>
      settle(channel!.post(master!.url, `{"type":"ACKNOWLEDGE","n":${n}}`, "s", "ACKNOWLEDGE")),
    );
    expect(await Promise.all(acks)).toEqual(["network", "answered", "answered"]);
    expect([...master.seen.values()]).toEqual([1, 2, 2]);
  });

  it("never sends an ACCEPT twice: a cut one fails, for the launcher to reconcile", async () => {
    master = await startCuttingMaster(3);
    channel = new CallChannel({ connections: 1, pipelining: 8, timeoutMs: 5_000 });
    const accepts = [1, 2, 3].map((n) =>
      settle(channel!.post(master!.url, `{"type":"ACCEPT","n":${n}}`, "s", "ACCEPT")),
    );
    expect(await Promise.all(accepts)).toEqual(["network", "network", "network"]);
    expect([...master.seen.values()]).toEqual([1, 1, 1]);
    expect(await settle(channel.post(master.url, `{"type":"ACCEPT","n":4}`, "s", "ACCEPT"))).toBe(
      "answered",
    );
  });
});
