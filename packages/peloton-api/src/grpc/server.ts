/**
 * gRPC (HTTP/2, h2c) for Peloton's clients in every language, on
 * PELOTON_GRPC_PORT, from the method table of services.ts. Served by
 * grpc-js, gRPC's own Node implementation, with protobuf-es's generated
 * codecs: per unary call it costs the process about a quarter less CPU
 * than Connect's Node adapter did (measured on `grpc.get_job`, where that
 * overhead is most of a call), and gRPC's rules (deadlines, the request
 * size cap, compressed requests, UNIMPLEMENTED for an unknown method) are
 * its own.
 */
import { create, type DescMessage, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import * as grpc from "@grpc/grpc-js";
import { callerFor, type PelotonApiDeps } from "../calls/deps.ts";
import { reportInternal } from "../calls/internal.ts";
import { MAX_REQUEST_BYTES } from "../calls/limits.ts";
import {
  type Call,
  type Registry,
  type ResolvedMethod,
  run,
  runStream,
} from "../calls/registry.ts";
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

/** A method's path and codecs: protobuf-es's binary form of its messages. */
function methodDefinition({ method }: ResolvedMethod): grpc.MethodDefinition<unknown, unknown> {
  const input: DescMessage = method.input;
  const output: DescMessage = method.output;
  return {
    path: `/${method.parent.typeName}/${method.name}`,
    requestStream: false,
    responseStream: method.methodKind === "server_streaming",
    requestSerialize: (request) => Buffer.from(toBinary(input, request as never)),
    requestDeserialize: (bytes: Buffer) => fromBinary(input, bytes),
    // Handlers answer either finished messages or their init shapes.
    responseSerialize: (answer) => {
      const message = (answer as { $typeName?: string }).$typeName
        ? answer
        : create(output, answer as never);
      const bytes = toBinary(output, message as never);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    responseDeserialize: (bytes: Buffer) => fromBinary(output, bytes),
  };
}

/** Our error as the status grpc-js sends: its code (Connect's codes are gRPC's) and sentence. */
function statusObject(error: unknown): grpc.ServerErrorResponse {
  const status = ConnectError.from(error);
  return Object.assign(new Error(status.rawMessage), {
    code: status.code as number,
    details: status.rawMessage,
  });
}

/**
 * What a call is given: the router as the metadata's sender, and a signal
 * the client's going away aborts. grpc-js also reports "cancelled" once a
 * call has ended normally: `answered` stops listening before the answer
 * leaves, so a finished call aborts nothing (an abort builds an AbortError
 * with its stack, 5 % of a unary call's CPU).
 */
function callContext(
  options: GrpcServerOptions,
  call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>,
): { context: Call; answered: () => void } {
  const controller = new AbortController();
  const cancelled = () => controller.abort();
  call.once("cancelled", cancelled);
  // Only the token says who calls (callerFor reads `authorization` alone).
  const headers = new Headers();
  const [authorization] = call.metadata.get("authorization");
  if (typeof authorization === "string") headers.set("authorization", authorization);
  return {
    context: {
      caller: callerFor(options.deps, headers, "grpc", controller.signal),
      signal: controller.signal,
    },
    answered: () => call.off("cancelled", cancelled),
  };
}

function unaryHandler(options: GrpcServerOptions, resolved: ResolvedMethod, procedure: string) {
  return (call: grpc.ServerUnaryCall<unknown, unknown>, done: grpc.sendUnaryData<unknown>) => {
    const { context, answered } = callContext(options, call);
    run(resolved, call.request, context).then(
      (answer) => {
        answered();
        done(null, answer);
      },
      (error) => {
        answered();
        done(statusObject(reportInternal(error, procedure, options.onInternalError)));
      },
    );
  };
}

/** Until the stream can take more, or the client has gone (then no drain ever comes). */
function drained(call: grpc.ServerWritableStream<unknown, unknown>, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const done = () => {
      call.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    call.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}

function streamHandler(options: GrpcServerOptions, resolved: ResolvedMethod, procedure: string) {
  return async (call: grpc.ServerWritableStream<unknown, unknown>) => {
    const { context, answered } = callContext(options, call);
    try {
      for await (const answer of runStream(resolved, call.request, context)) {
        if (context.signal.aborted) return;
        // Backpressure: a slow reader holds the stream, not the server's memory.
        if (!call.write(answer)) await drained(call, context.signal);
      }
      if (context.signal.aborted) return;
      answered();
      call.end();
    } catch (error) {
      if (context.signal.aborted) return;
      answered();
      call.emit("error", statusObject(reportInternal(error, procedure, options.onInternalError)));
    }
  };
}

/** Every method of the table, grouped by service as grpc-js registers them. */
function addServices(server: grpc.Server, options: GrpcServerOptions, registry: Registry): void {
  const services = new Map<
    string,
    {
      definition: Record<string, grpc.MethodDefinition<unknown, unknown>>;
      handlers: grpc.UntypedServiceImplementation;
    }
  >();
  for (const resolved of registry.methods()) {
    const { method } = resolved;
    const procedure = `${method.parent.typeName}/${method.name}`;
    let service = services.get(method.parent.typeName);
    if (!service) {
      service = { definition: {}, handlers: {} };
      services.set(method.parent.typeName, service);
    }
    service.definition[method.name] = methodDefinition(resolved);
    service.handlers[method.name] =
      method.methodKind === "server_streaming"
        ? streamHandler(options, resolved, procedure)
        : unaryHandler(options, resolved, procedure);
  }
  for (const { definition, handlers } of services.values()) server.addService(definition, handlers);
}

/**
 * grpc-js reports a port in use inside its own sentence ("No address added
 * … EADDRINUSE …"); the caller tells that case apart by the errno code, as
 * for any other listener.
 */
function bindError(error: Error): Error {
  return /EADDRINUSE/.test(error.message)
    ? Object.assign(new Error(error.message), { code: "EADDRINUSE" })
    : error;
}

/** Listens on host:port; resolves once it does. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  // grpc-js's own log (a refused bind, a peer's protocol error) goes to
  // stderr unformatted; what matters reaches our log as errors. GRPC_VERBOSITY
  // still turns it on for a debugging session.
  if (!process.env.GRPC_VERBOSITY) grpc.setLogVerbosity(grpc.logVerbosity.NONE);
  const server = new grpc.Server({
    // A bigger request is refused (RESOURCE_EXHAUSTED) from its length prefix, before it is read whole.
    "grpc.max_receive_message_length": MAX_REQUEST_BYTES,
    // Channelz stays on (grpc-js's default) although we serve no channelz
    // service: with it off, grpc-js (1.14) stops recording sessions where
    // forceShutdown looks for them, and close() waits forever on a call
    // that never ends.
  });
  addServices(server, options, options.registry ?? pelotonRegistry());
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${host}:${options.port}`,
      grpc.ServerCredentials.createInsecure(),
      (error, bound) => (error ? reject(bindError(error)) : resolve(bound)),
    ),
  );
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // A call that never ends (a watch stream, a client stuck mid-upload)
        // would hold the server open: after a grace period, cut what is left.
        const cut = setTimeout(() => server.forceShutdown(), CLOSE_GRACE_MS);
        cut.unref();
        server.tryShutdown(() => {
          clearTimeout(cut);
          resolve();
        });
      }),
  };
}
