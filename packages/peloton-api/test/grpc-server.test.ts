/**
 * The gRPC server's own behaviour, over a one-method table: the signal a
 * handler is given (aborted when its client goes away mid-call, never once
 * the call has answered: grpc-js reports every ended call as "cancelled",
 * and aborting then cost each call an AbortError), and close() cutting a
 * call that never ends once its grace period is over.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PelotonApiDeps } from "../src/calls/deps.ts";
import { Registry, serve } from "../src/calls/registry.ts";
import { JobManager } from "../src/generated/peloton/api/v0/job/job_pb.ts";
import { type GrpcServer, startGrpcServer } from "../src/grpc/server.ts";

const signals: AbortSignal[] = [];
/** When set, Get waits for the test to let it go. */
let held: Promise<void> | null = null;

const registry = new Registry([
  serve(
    JobManager,
    {
      async get(_request, { signal }) {
        signals.push(signal);
        if (held) await held;
        return {};
      },
    },
    (method) => `${method.name} is not served here`,
  ),
]);

// The handler never uses the router: a context of nothing is enough.
const deps: PelotonApiDeps = {
  context: () => ({}) as ReturnType<PelotonApiDeps["context"]>,
  resolveActor: async () => null,
};

let server: GrpcServer;
beforeAll(async () => {
  server = await startGrpcServer({ port: 0, host: "127.0.0.1", deps, registry });
});
afterAll(() => server.close());

const jobs = (port = server.port) =>
  createClient(JobManager, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));

const turns = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a gRPC call's signal", () => {
  it("is never aborted once the call has answered", async () => {
    signals.length = 0;
    await jobs().get({ id: { value: "x" } });
    await turns(50);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);
  });

  it("is aborted when the client goes away before the answer", async () => {
    signals.length = 0;
    let release = () => {};
    held = new Promise((resolve) => {
      release = resolve;
    });
    const client = new AbortController();
    const call = jobs().get({ id: { value: "x" } }, { signal: client.signal });
    while (signals.length === 0) await turns(5);
    client.abort();
    await expect(call).rejects.toThrow();
    for (let waited = 0; !signals[0]?.aborted && waited < 2_000; waited += 10) await turns(10);
    expect(signals[0]?.aborted).toBe(true);
    held = null;
    release();
  });
});

describe("closing the gRPC server", () => {
  it("cuts a call that never ends once its grace period is over", async () => {
    const other = await startGrpcServer({ port: 0, host: "127.0.0.1", deps, registry });
    signals.length = 0;
    held = new Promise(() => {}); // this call's handler never answers
    const call = jobs(other.port).get({ id: { value: "x" } });
    call.catch(() => {});
    while (signals.length === 0) await turns(5);
    const t0 = performance.now();
    await other.close();
    held = null;
    // The 2 s grace, then forceShutdown cuts the connection the call holds.
    expect(performance.now() - t0).toBeLessThan(4_000);
    await expect(call).rejects.toThrow();
  });
});
