/**
 * gRPC clients generated from our protos, for any service of the table,
 * sending the test token.
 */
import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient } from "@connectrpc/connect";
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
