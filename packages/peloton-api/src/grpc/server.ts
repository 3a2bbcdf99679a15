/**
 * gRPC (HTTP/2, h2c) for Peloton's clients in every language, on
 * PELOTON_GRPC_PORT. Served by Connect's Node adapter with only the gRPC
 * protocol on, from the method table of services.ts.
 */
import { createServer, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { callerFor, type PelotonApiDeps } from "../calls/deps.ts";
import { reportInternal } from "../calls/internal.ts";
import { MAX_REQUEST_BYTES } from "../calls/limits.ts";
import { type Registry, run, runStream } from "../calls/registry.ts";
import { pelotonRegistry } from "../services.ts";

/** How long closing waits for calls in flight before cutting their connections. */
const CLOSE_GRACE_MS = 2_000;

export interface GrpcServerOptions {
  port: number;
  host: string;
  deps: PelotonApiDeps;
  /** Where a failure that is a bug goes (the answer says only "internal error"). */
  onInternalError?: (error: unknown, procedure: string) => void;
  registry?: Registry;
}

export interface GrpcServer {
  /** The port it listens on (the one asked for, or the system's pick for 0). */
  port: number;
  close: () => Promise<void>;
}

function routes(options: GrpcServerOptions, registry: Registry) {
  return (router: ConnectRouter) => {
    for (const resolved of registry.methods()) {
      const procedure = `${resolved.method.parent.typeName}/${resolved.method.name}`;
      if (resolved.method.methodKind === "unary") {
        // The table's methods are untyped (DescMethod); each handler is typed where it is written.
        const impl = async (request: unknown, context: HandlerContext) => {
          const caller = callerFor(options.deps, context.requestHeader, "grpc", context.signal);
          try {
            return await run(resolved, request, { caller, signal: context.signal });
          } catch (error) {
            throw reportInternal(error, procedure, options.onInternalError);
          }
        };
        router.rpc(resolved.method, impl as never);
      } else {
        const impl = async function* (request: unknown, context: HandlerContext) {
          const caller = callerFor(options.deps, context.requestHeader, "grpc", context.signal);
          try {
            yield* runStream(resolved, request, { caller, signal: context.signal });
          } catch (error) {
            throw reportInternal(error, procedure, options.onInternalError);
          }
        };
        router.rpc(resolved.method, impl as never);
      }
    }
  };
}

/** Listens on host:port; resolves once it does. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const registry = options.registry ?? pelotonRegistry();
  const handler = connectNodeAdapter({
    routes: routes(options, registry),
    grpc: true,
    grpcWeb: false,
    connect: false,
    // A bigger request is refused (RESOURCE_EXHAUSTED) before it is read whole.
    readMaxBytes: MAX_REQUEST_BYTES,
    // Answers go uncompressed even to a client that accepts gzip (Connect's
    // clients say they do): on a cluster's network, gzip of a 1,000-task list
    // costs the scheduler more time than it saves on the wire, and gRPC's
    // own servers do not compress unless told to. Compressed requests are
    // still read.
    compressMinBytes: Number.MAX_SAFE_INTEGER,
  });
  const server: Http2Server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const sessions = new Set<ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.close();
        server.close(() => resolve());
        // A client that never ends its stream (one refused mid-upload, say)
        // would hold the server open: after a grace period, cut what is left.
        setTimeout(() => {
          for (const session of sessions) session.destroy();
        }, CLOSE_GRACE_MS).unref();
      }),
  };
}
