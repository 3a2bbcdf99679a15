/**
 * The API over real HTTP on an ephemeral port, for tests and benchmarks of
 * clients (the CLI, tRPC's HTTP client): the console's own fetch edge
 * (`createTrpcEdge`: the same bounds, error answers and request ids) on
 * Node's HTTP server, and the console's other API route, the preemptions CSV
 * export.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { type Context, SIGN_IN_FIRST } from "@peloton/api";
import { createTrpcEdge, type EdgeOptions, preemptionsCsvResponse } from "@peloton/api/http";

export interface ServedApi {
  /** What PELOTON_URL would be: the tRPC endpoint is `${url}/api/trpc`. */
  url: string;
  close: () => Promise<void>;
}

/** Node's request as a fetch Request (the body streamed, as Next hands it to a route). */
export function toRequest(req: IncomingMessage, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const abort = new AbortController();
  req.on("close", () => abort.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", base), {
    method: req.method ?? "GET",
    headers,
    signal: abort.signal,
    ...(hasBody
      ? { body: Readable.toWeb(req) as unknown as ReadableStream, duplex: "half" as const }
      : {}),
  } as RequestInit);
}

/** A fetch Response written to Node's response, streamed. */
export function send(response: Response, res: ServerResponse): void {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as NodeReadableStream);
  body.on("error", () => res.destroy());
  res.on("close", () => body.destroy());
  body.pipe(res);
}

export async function serveApi(
  context: () => Context,
  edgeOptions: Omit<EdgeOptions, "createContext"> = {},
): Promise<ServedApi> {
  const edge = createTrpcEdge({ ...edgeOptions, createContext: context });
  let base = "http://127.0.0.1";
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    if (url.pathname === "/api/preemptions.csv") {
      // As handlePreemptionsCsv: nobody signed in is a 401, never the file.
      const ctx = context();
      if (ctx.actor === null) return send(new Response(`${SIGN_IN_FIRST}\n`, { status: 401 }), res);
      return send(preemptionsCsvResponse(ctx.gateway, url), res);
    }
    edge(toRequest(req, base)).then(
      (response) => send(response, res),
      (err: unknown) => {
        console.error("test server:", err);
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
