/** A gRPC client of one Peloton service on the test server, sending TOKEN (or `token`, or none). */
import type { DescService } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { type Served, TOKEN } from "./servers.ts";

export function grpcClient<S extends DescService>(
  served: Served,
  service: S,
  token: string | null = TOKEN,
): Client<S> {
  const transport = createGrpcTransport({
    baseUrl: served.grpcUrl,
    interceptors: [
      (next) => (req) => {
        if (token) req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      },
    ],
  });
  return createClient(service, transport);
}

/** The code and message a call is refused with (the test fails if it is not). */
export async function refusal(promise: Promise<unknown>): Promise<{ code: Code; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = ConnectError.from(error);
    return { code: e.code, message: e.rawMessage };
  }
  throw new Error("expected a refusal");
}

export { Code };
