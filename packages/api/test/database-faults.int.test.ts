/**
 * Database failures as answers, caused for real: PostgreSQL made unreachable
 * (the API's connections go through a TCP proxy this test stops) answers 503
 * with a sentence and a request id, the cause logged under that id; errors a
 * user's values can cause in PostgreSQL itself (a duplicate, too long, out of
 * range, a NUL byte, an index row too big) map to 409 and 400.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { schedulerServices } from "@peloton/scheduler";
import { ChangeListener, createDb, openGateway } from "@peloton/storage";
import { testActor } from "@peloton/test-support/api/context.ts";
import { serveApi } from "@peloton/test-support/api/http-server.ts";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, inject, it } from "vitest";
import { answerFor } from "../src/errors/answers.ts";
import { mutate, query } from "./support/probe.ts";
import "@peloton/test-support/storage/provided-context.ts";

/** A TCP proxy to PostgreSQL that can be stopped (every connection cut, the port closed) and started again. */
class DatabaseProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const db = connect(this.targetPort, this.host);
      for (const s of [client, db]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => undefined);
      }
      client.pipe(db).pipe(client);
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  }
}

const databaseUrl = inject("databaseUrl");

describe("a database outage", () => {
  const target = new URL(databaseUrl);
  const proxy = new DatabaseProxy(target.hostname, Number(target.port || 5432));
  const logged: string[] = [];

  it("answers 503 with a sentence and a request id while PostgreSQL cannot be reached, then recovers", async () => {
    await proxy.start();
    const viaProxy = new URL(databaseUrl);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const gateway = openGateway(viaProxy.toString(), { max: 2 });
    const changes = new ChangeListener(databaseUrl);
    const scheduler = schedulerServices(gateway);
    const api = await serveApi(() => ({ gateway, scheduler, changes, actor: testActor() }), {
      log: (line, cause) => logged.push(`${line} ${String(cause)}`),
    });
    try {
      expect((await query(api.url, "system.health")).status).toBe(200);

      await proxy.stop();
      for (const ask of [
        () => query(api.url, "system.health"),
        () => query(api.url, "pools.tree"),
        () => mutate(api.url, "pools.create", { path: "/p", config: { name: "p" } }),
      ]) {
        const a = await ask();
        expect(a.status, a.text).toBe(503);
        expect(a.error?.message).toBe("the database is unreachable; try again shortly");
        expect(a.error?.data?.code).toBe("SERVICE_UNAVAILABLE");
        const id = a.error?.data?.requestId;
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(a.text).not.toMatch(/prisma|ECONNREFUSED|127\.0\.0\.1/i);
        // The cause is in the server's log, under the id the answer names.
        expect(logged.find((l) => l.includes(id!))).toMatch(/SERVICE_UNAVAILABLE/);
      }

      await proxy.start(); // the same port again
      let health = await query(api.url, "system.health");
      for (let i = 0; i < 20 && health.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        health = await query(api.url, "system.health");
      }
      expect(health.status).toBe(200);
    } finally {
      await api.close();
      await changes.stop();
      await gateway.close();
      await proxy.stop();
    }
  });
});

describe("what PostgreSQL refuses in a user's values", () => {
  const db = createDb(databaseUrl, { max: 1 });
  afterAll(async () => {
    await db.$executeRawUnsafe("DROP TABLE IF EXISTS fault_probe");
    await db.$disconnect();
  });

  /** The answer for the error PostgreSQL gives `statement` (through Prisma, as the repositories meet it). */
  async function answerTo(statement: string): Promise<TRPCError> {
    try {
      await db.$executeRawUnsafe(statement);
    } catch (cause) {
      return answerFor(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause }));
    }
    throw new Error(`expected ${statement} to fail`);
  }

  it.each([
    [
      "a duplicate",
      "INSERT INTO fault_probe (k) VALUES ('a'), ('a')",
      "CONFLICT",
      /already exists/,
    ],
    [
      "a value too long",
      "INSERT INTO fault_probe (k, short) VALUES ('b', repeat('x', 20))",
      "BAD_REQUEST",
      /too long/,
    ],
    [
      "a number out of range",
      "INSERT INTO fault_probe (k, n) VALUES ('c', 2147483648)",
      "BAD_REQUEST",
      /out of the range/,
    ],
    ["a NUL byte", "SELECT convert_from('\\x6100'::bytea, 'UTF8')", "BAD_REQUEST", /cannot store/],
    [
      "an index row too big",
      "INSERT INTO fault_probe (k) SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 5000)",
      "BAD_REQUEST",
      /too large to store or to index/,
    ],
    ["text where a number goes", "SELECT 'abc'::int", "BAD_REQUEST", /not valid/],
  ])("%s", async (_name, statement, code, says) => {
    await db.$executeRawUnsafe(
      "CREATE TABLE IF NOT EXISTS fault_probe (k text PRIMARY KEY, short varchar(5), n int)",
    );
    const answer = await answerTo(statement);
    expect(answer.code).toBe(code);
    expect(answer.message).toMatch(says);
    expect(answer.message).not.toMatch(/prisma|fault_probe|INSERT|SELECT/i);
  });
});
