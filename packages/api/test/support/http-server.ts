/**
 * The API over real HTTP on an ephemeral port, for tests and benchmarks of
 * clients (the CLI, tRPC's HTTP client): the same router and error formatter
 * as the console's route, on Node's HTTP server, and the console's other API
 * route, the preemptions CSV export.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { Context } from "../../src/context.ts";
import { preemptionsCsvResponse } from "../../src/preemptions/http.ts";
import { appRouter } from "../../src/root.ts";

export interface ServedApi {
  /** What PELOTON_URL would be: the tRPC endpoint is `${url}/api/trpc`. */
  url: string;
  close: () => Promise<void>;
}

export async function serveApi(context: () => Context): Promise<ServedApi> {
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: "/api/trpc/",
    createContext: () => context(),
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/api/preemptions.csv") return trpc(req, res);
    const response = preemptionsCsvResponse(context().gateway, url);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    Readable.fromWeb(response.body as NodeReadableStream).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
