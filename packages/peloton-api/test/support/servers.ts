/**
 * Peloton's API served for a test over a test context: gRPC on a free port
 * and the YARPC endpoint on a plain HTTP server, both knowing one token.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Actor, createCaller } from "@peloton/api";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import type { PelotonApiDeps } from "../../src/calls/deps.ts";
import { type GrpcServer, startGrpcServer } from "../../src/grpc/server.ts";
import { handleYarpcRequest } from "../../src/yarpc/http.ts";

export const TOKEN = `pt_${"a".repeat(43)}`;

export interface Served {
  grpcUrl: string;
  yarpcUrl: string;
  context: ReturnType<typeof testContext>;
  /** The router as the same actor, in process: what the CLI's requests reach. */
  caller: ReturnType<typeof createCaller>;
  /** Failures the servers logged as bugs (each test expects none). */
  internalErrors: unknown[];
  close: () => Promise<void>;
}

/** `actor` answers for TOKEN; any other bearer, and no bearer, is nobody. */
export async function servePelotonApi(actor: Actor = testActor({ login: "ci" })): Promise<Served> {
  const context = testContext(actor);
  const internalErrors: unknown[] = [];
  const deps: PelotonApiDeps = {
    context: () => ({
      gateway: context.gateway,
      scheduler: context.scheduler,
      changes: context.changes,
    }),
    resolveActor: async (headers) =>
      headers.get("authorization") === `Bearer ${TOKEN}`
        ? { ...actor, via: { kind: "token", tokenId: "t1", tokenName: "ci" } }
        : null,
  };
  const onInternalError = (error: unknown) => void internalErrors.push(error);
  const grpc: GrpcServer = await startGrpcServer({
    port: 0,
    host: "127.0.0.1",
    deps,
    onInternalError,
  });
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const answer = await handleYarpcRequest(
      new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers,
        ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
      }),
      { deps, onInternalError },
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    grpcUrl: `http://127.0.0.1:${grpc.port}`,
    yarpcUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v1`,
    context,
    caller: createCaller(context),
    internalErrors,
    close: async () => {
      await grpc.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await context.close();
    },
  };
}
