/**
 * GET /api/health with PostgreSQL unreachable: 503 and the report as JSON,
 * so a load balancer takes the replica out and an operator reads why.
 */
import { afterAll, expect, it } from "vitest";
import { processGateway } from "../src/server/gateway.ts";
import { handleHealthRequest } from "../src/server/http.ts";

const saved = { url: process.env.DATABASE_URL, replica: process.env.PELOTON_REPLICA };
afterAll(async () => {
  // The process's gateway (kept on globalThis) points at nothing: close and forget it.
  await processGateway().close();
  delete (globalThis as { __pelotonGateway?: unknown }).__pelotonGateway;
  delete (globalThis as { __pelotonDb?: unknown }).__pelotonDb;
  process.env.DATABASE_URL = saved.url;
  if (saved.replica === undefined) delete process.env.PELOTON_REPLICA;
  else process.env.PELOTON_REPLICA = saved.replica;
});

it("answers 503 with the report while the database is unreachable", async () => {
  // Nothing listens on port 1: the process's gateway cannot connect.
  process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/peloton";
  process.env.PELOTON_REPLICA = "box-1:42";
  const res = await handleHealthRequest();
  expect(res.status).toBe(503);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(await res.json()).toMatchObject({
    ok: false,
    database: { reachable: false },
    replica: "box-1:42",
    leads: false,
    scheduler: { running: false },
    cluster: { subscribed: false },
  });
});
