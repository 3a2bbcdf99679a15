/**
 * The HTTP edge's own refusals, before any procedure or database is reached
 * (so no database here): each a tRPC error envelope with a sentence.
 */
import { describe, expect, it } from "vitest";
import type { Context } from "../src/context.ts";
import { createTrpcEdge } from "../src/server/edge.ts";

// Never called: every request below is refused before a context is made.
const edge = createTrpcEdge({
  createContext: () => {
    throw new Error("no context for a refused request");
  },
  log: () => undefined,
});

async function answer(req: Request) {
  const res = await edge(req);
  const body = (await res.json()) as unknown;
  const first = (Array.isArray(body) ? body[0] : body) as { error: { json: { message: string } } };
  return { res, message: first.error.json.message, body };
}

describe("the edge", () => {
  it("refuses a batch of more than 50 calls, one envelope per call", async () => {
    const paths = Array.from({ length: 51 }, () => "system.health").join(",");
    const { res, message, body } = await answer(new Request(`http://x/api/trpc/${paths}?batch=1`));
    expect(res.status).toBe(400);
    expect(message).toBe("a batch has at most 50 calls (got 51)");
    expect(body).toHaveLength(51);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("server-timing")).toMatch(/^total;dur=/);
  });

  it("refuses a body whose declared size is over 2 MiB without reading it, and closes the connection", async () => {
    const { res, message } = await answer(
      new Request("http://x/api/trpc/pools.create", {
        method: "POST",
        headers: { "content-length": "3000000", "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(413);
    expect(message).toBe("a request body has at most 2,097,152 bytes (got 3,000,000)");
    expect(res.headers.get("connection")).toBe("close");
  });

  it("answers a malformed path as a bad request, not with a crash", async () => {
    const res = await createTrpcEdge({
      createContext: () => ({}) as Context,
      log: () => undefined,
    })(new Request("http://x/api/trpc/%E0%A4%A"));
    expect(res.status).toBe(400);
  });

  it("answers a bug as 500 naming only the request id, and logs the cause under that id", async () => {
    const logged: string[] = [];
    const failing = createTrpcEdge({
      createContext: () =>
        ({
          gateway: {
            ping: () => Promise.reject(new Error('relation "secret" does not exist: SELECT 1')),
          },
        }) as unknown as Context,
      log: (line, cause) => logged.push(`${line} ${String(cause)}`),
    });
    const res = await failing(new Request("http://x/api/trpc/system.health"));
    const text = await res.text();
    expect(res.status).toBe(500);
    const id = res.headers.get("x-request-id")!;
    expect(JSON.parse(text).error.json.message).toBe(
      `internal error (request ${id}); the details are in the server log`,
    );
    expect(text).not.toMatch(/secret|SELECT|stack/);
    expect(logged).toEqual([expect.stringContaining(`[request ${id}] system.health`)]);
    expect(logged[0]).toContain('relation "secret" does not exist');
  });

  it("answers a database that cannot be reached as 503", async () => {
    const down = createTrpcEdge({
      createContext: () =>
        ({
          gateway: {
            ping: () =>
              Promise.reject(
                Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
              ),
          },
        }) as unknown as Context,
      log: () => undefined,
    });
    const res = await down(new Request("http://x/api/trpc/system.health"));
    expect(res.status).toBe(503);
    expect(
      ((await res.json()) as { error: { json: { message: string } } }).error.json.message,
    ).toBe("the database is unreachable; try again shortly");
  });
});
