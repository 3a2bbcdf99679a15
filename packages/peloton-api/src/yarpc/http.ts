/**
 * YARPC's JSON (and protobuf) encoding over HTTP, as Peloton's clients and
 * the README's curl speak it: `POST /api/v1` on the console's port, the
 * method in `Rpc-Procedure` (`JobManager.Get` or
 * `peloton.api.v0.job.JobManager::Get`), `Rpc-Encoding: json` (the default)
 * or `proto`, the request as the body, the answer as the body; a failure is
 * YARPC's status code, `Rpc-Status` header and message (yarpc/errors.ts).
 */
import {
  create,
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonValue,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { callerFor, type PelotonApiDeps } from "../calls/deps.ts";
import { reportInternal } from "../calls/internal.ts";
import { MAX_REQUEST_BYTES } from "../calls/limits.ts";
import { processDeps } from "../calls/process.ts";
import { type Registry, run } from "../calls/registry.ts";
import { pelotonRegistry } from "../services.ts";
import { yarpcError, yarpcErrorResponse } from "./errors.ts";

export interface YarpcOptions {
  deps?: PelotonApiDeps;
  registry?: Registry;
  onInternalError?: (error: unknown, procedure: string) => void;
}

async function boundedBody(req: Request): Promise<Uint8Array | null> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_REQUEST_BYTES) return null;
  const reader = req.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REQUEST_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function decode(schema: DescMessage, body: Uint8Array, encoding: "json" | "proto") {
  if (encoding === "proto") return fromBinary(schema, body);
  const text = new TextDecoder().decode(body).trim();
  let json: JsonValue;
  try {
    json = text === "" ? {} : (JSON.parse(text) as JsonValue);
  } catch (error) {
    throw new ConnectError(
      `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      Code.InvalidArgument,
    );
  }
  try {
    return fromJson(schema, json);
  } catch (error) {
    // protobuf-es names the message and field: "cannot decode field peloton.api.v0.job.GetRequest.id …".
    throw new ConnectError(
      error instanceof Error ? error.message : String(error),
      Code.InvalidArgument,
    );
  }
}

export async function handleYarpcRequest(
  req: Request,
  options: YarpcOptions = {},
): Promise<Response> {
  if (req.method !== "POST")
    return yarpcError(Code.InvalidArgument, "YARPC over HTTP takes POST requests");
  const procedure = req.headers.get("rpc-procedure")?.trim() ?? "";
  if (!procedure)
    return yarpcError(
      Code.InvalidArgument,
      "Rpc-Procedure: name the method, such as JobManager.Get or peloton.api.v0.job.JobManager::Get",
    );
  const registry = options.registry ?? pelotonRegistry();
  const resolved = registry.procedure(procedure);
  if (resolved === null)
    return yarpcError(Code.Unimplemented, `Rpc-Procedure: no Peloton method ${procedure}`);
  if ("ambiguous" in resolved)
    return yarpcError(
      Code.InvalidArgument,
      `Rpc-Procedure: ${procedure} names more than one method; use one of ${resolved.ambiguous.join(", ")}`,
    );
  const encodingHeader = (req.headers.get("rpc-encoding") ?? "json").toLowerCase();
  if (encodingHeader !== "json" && encodingHeader !== "proto")
    return yarpcError(Code.InvalidArgument, `Rpc-Encoding: json or proto (got ${encodingHeader})`);
  const encoding = encodingHeader;
  if (resolved.method.methodKind !== "unary")
    return yarpcError(
      Code.Unimplemented,
      `${procedure} is a stream; YARPC over HTTP carries one request and one answer (use gRPC)`,
    );
  const body = await boundedBody(req);
  if (body === null)
    return yarpcError(
      Code.InvalidArgument,
      `the body is larger than ${MAX_REQUEST_BYTES / 1024 / 1024} MiB`,
    );
  const deps = options.deps ?? processDeps();
  const name = `${resolved.method.parent.typeName}::${resolved.method.name}`;
  try {
    const request = decode(resolved.method.input, body, encoding);
    const answer = create(
      resolved.method.output,
      (await run(resolved, request, {
        caller: callerFor(deps, req.headers, "yarpc", req.signal),
        signal: req.signal,
      })) as never,
    );
    const headers = new Headers({ "cache-control": "no-store", "rpc-encoding": encoding });
    if (encoding === "proto") {
      headers.set("content-type", "application/x-protobuf");
      return new Response(Buffer.from(toBinary(resolved.method.output, answer)), { headers });
    }
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify(toJson(resolved.method.output, answer)), { headers });
  } catch (error) {
    reportInternal(error, name, options.onInternalError);
    return yarpcErrorResponse(
      error instanceof ConnectError
        ? error
        : new ConnectError("internal error: see the server's log", Code.Internal),
    );
  }
}
