/**
 * Issue 14's bad inputs, each sent over HTTP to the console's own edge
 * (`createTrpcEdge`) on the scratch database: every one is refused with a
 * sentence naming the field and the limit, in milliseconds, while a health
 * probe keeps answering, and the database is left exactly as it was.
 */

import { testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { batchYaml } from "./support/jobs.ts";
import { type Answer, call, fingerprint, mutate, query } from "./support/probe.ts";
import { within } from "./support/timing.ts";

/** The server's time on a refusal (the issue's acceptance; stretched on a busy machine: timing.ts). */
const REFUSAL_MS = 200;
/** The whole round trip, including the test's own work on megabytes of input. */
const ROUND_TRIP_MS = 3_000;

const ctx = testContext();
let api: ServedApi;
let pool: string;
let jobId: string;
let before: Record<string, string>;

beforeAll(async () => {
  await resetDatabase();
  pool = await leafPool(ctx.gateway);
  jobId = (await createCaller(ctx).jobs.create({ pool, yaml: batchYaml({ instances: 2 }) })).id;
  api = await serveApi(() => ctx);
  // Warm the server's paths (module loading, zod's compiled parsers) before anything is timed.
  await mutate(api.url, "jobs.create", { pool, yaml: jobYaml("labels: [{key: 1}]\n") });
  await mutate(api.url, "pools.create", { path: "/p", config: { name: "p", owningTeam: 1 } });
  before = await fingerprint(inject("databaseUrl"));
});
afterAll(async () => {
  // Nothing any test below sent was stored.
  expect(await fingerprint(inject("databaseUrl"))).toEqual(before);
  await api.close();
  await ctx.close();
});

/** The refusal's status, its one sentence (message) and the issue fields. */
function refused(a: Answer, status = 400) {
  expect(a.status, a.text.slice(0, 500)).toBe(status);
  expect(a.serverMs).toBeLessThan(within(REFUSAL_MS));
  expect(a.ms).toBeLessThan(ROUND_TRIP_MS);
  expect(a.error?.data?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(a.text).not.toMatch(/prisma|SELECT|INSERT|invalid input syntax|at .*\.ts:\d+/i);
  return {
    message: a.error?.message ?? "",
    fields: (a.error?.data?.issues ?? []).map((i) => i.field),
  };
}

function jobYaml(lines: string): string {
  return `name: fuzz\ntype: 0\ninstancecount: 2\ndefaultconfig:\n  resource:\n    cpulimit: 1\n    memlimitmb: 64\n  command:\n    value: echo\n${lines}`;
}

describe("job files", () => {
  it("an instanceconfig of 40,000 keys for 100 instances is refused at once, and health keeps answering", async () => {
    let yaml = "name: big\ntype: 0\ninstancecount: 100\ninstanceconfig:\n";
    for (let i = 0; i < 40_000; i++) yaml += `  ${i}: {}\n`;
    const probe = query(api.url, "system.health");
    const a = await mutate(api.url, "jobs.create", { pool, yaml });
    const health = await probe;
    const { message } = refused(a);
    // The server's own time: the test's client shares this process and its event loop.
    expect(message).toMatch(/^yaml: at most 131,072 characters \(got 46\d,\d{3}\)$/);
    expect(health.status).toBe(200);
    expect(health.serverMs).toBeLessThan(within(100));
  });

  it("an instanceconfig of 150 overrides for 100 instances is refused on the count, before any override is parsed", async () => {
    let yaml = jobYaml("instanceconfig:\n").replace("instancecount: 2", "instancecount: 100");
    for (let i = 0; i < 150; i++) yaml += `  ${i}: {}\n`;
    const { message, fields } = refused(await mutate(api.url, "jobs.create", { pool, yaml }));
    expect(message).toContain(
      "instanceconfig (line 11): at most 100 entries, one per instance (instanceCount 100) (got 150)",
    );
    expect(fields).toEqual(["instanceconfig"]);
  });

  it("a document of more keys than a job could need is refused before it is parsed", async () => {
    let yaml = jobYaml("labels:\n");
    for (let i = 0; i < 1_000; i++) yaml += `  - {key: k${i}, value: v}\n`;
    const { message } = refused(await mutate(api.url, "jobs.create", { pool, yaml }));
    expect(message).toContain("a YAML document has at most 2,000 keys (got more than 2,000)");
    for (let i = 1_000; i < 3_000; i++) yaml += `  - {key: k${i}, value: v}\n`;
    const many = refused(await mutate(api.url, "jobs.create", { pool, yaml }));
    expect(many.message).toContain("a YAML document has at most 2,000 keys (got about 6,0");
  });

  it.each([
    [
      "cpulimit",
      "1e20",
      "defaultconfig.resource.cpulimit",
      "at most 1,024 cores (got 100,000,000,000,000,000,000 cores)",
    ],
    [
      "cpulimit",
      "9007199254740993",
      "defaultconfig.resource.cpulimit",
      "at most 1,024 cores (got 9,007,199,254,740,992 cores)",
    ],
    [
      "memlimitmb",
      "2147483648",
      "defaultconfig.resource.memlimitmb",
      "at most 16,777,216 MB (got 2,147,483,648 MB)",
    ],
  ])("%s: %s is more than a host could have", async (key, value, field, says) => {
    const yaml = jobYaml("").replace(new RegExp(`${key}: \\d+`), `${key}: ${value}`);
    const { message, fields } = refused(await mutate(api.url, "jobs.create", { pool, yaml }));
    expect(fields).toContain(field);
    expect(message).toContain(says);
  });

  it("sla.priority 2^31 is above the priority range", async () => {
    const yaml = jobYaml("sla:\n  priority: 2147483648\n");
    const { message, fields } = refused(await mutate(api.url, "jobs.create", { pool, yaml }));
    expect(fields).toEqual(["sla.priority"]);
    expect(message).toContain("at most 2,147,483,647 (got 2,147,483,648)");
  });

  it("a ~1 MB job name is refused by the document's size, a 10,000-character one by the name's limit", async () => {
    const huge = refused(
      await mutate(api.url, "jobs.create", {
        pool,
        yaml: jobYaml("").replace("name: fuzz", `name: ${"n".repeat(1_000_000)}`),
      }),
    );
    expect(huge.message).toContain("yaml: at most 131,072 characters (got 1,000,");
    const long = refused(
      await mutate(api.url, "jobs.create", {
        pool,
        yaml: jobYaml("").replace("name: fuzz", `name: ${"n".repeat(10_000)}`),
      }),
    );
    expect(long.fields).toEqual(["name"]);
    expect(long.message).toContain("name (line 1): at most 200 characters (got 10,000)");
  });

  it("an alias bomb and an unresolved alias are refused as the document's problems", async () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "name: [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
    ].join("\n");
    const b = refused(await mutate(api.url, "jobs.create", { pool, yaml: bomb }));
    expect(b.message).toContain("expands its aliases too many times (at most 100 per alias)");
    const u = refused(
      await mutate(api.url, "jobs.create", { pool, yaml: jobYaml("description: *nowhere\n") }),
    );
    expect(u.message).toContain("the alias *nowhere names no anchor set before it");
  });

  it("nesting 60,000 levels deep is refused without parsing it", async () => {
    const yaml = `name: ${"[".repeat(60_000)}${"]".repeat(60_000)}\n`;
    const { message } = refused(await mutate(api.url, "jobs.create", { pool, yaml }));
    expect(message).toContain("nests deeper than 64 levels");
  });
});

describe("pools", () => {
  const config = (more: Record<string, unknown>) => ({ name: "p", ...more });

  it("a 10 MB owningTeam: the body is over the edge's limit (413); through the schema, the field's", async () => {
    const owningTeam = "t".repeat(10 * 1024 * 1024);
    const a = refused(
      await mutate(api.url, "pools.create", { path: "/p", config: config({ owningTeam }) }),
      413,
    );
    expect(a.message).toMatch(/^a request body has at most 2,097,152 bytes \(got 10,485,\d{3}\)$/);
    await expect(
      createCaller(ctx).pools.create({ path: "/p", config: config({ owningTeam }) }),
    ).rejects.toThrow("owningTeam: at most 200 characters (got 10,485,760)");
  });

  it("a 1 MB description", async () => {
    const a = refused(
      await mutate(api.url, "pools.create", {
        path: "/p",
        config: config({ description: "d".repeat(1_048_576) }),
      }),
    );
    expect(a.message).toBe("description: at most 4,096 characters (got 1,048,576)");
    expect(a.fields).toEqual(["description"]);
  });

  it("200,000 ldapGroups", async () => {
    const ldapGroups = Array.from({ length: 200_000 }, () => "g");
    const a = refused(
      await mutate(api.url, "pools.create", { path: "/p", config: config({ ldapGroups }) }),
    );
    expect(a.message).toBe("ldapGroups: at most 100 entries (got 200,000)");
  });

  it("a reservation of 1e300 and a share of 2^53", async () => {
    const a = refused(
      await mutate(api.url, "pools.create", {
        path: "/p",
        config: config({
          resources: [{ kind: "cpu", reservation: 1e300, limit: 1, share: 2 ** 53 }],
        }),
      }),
    );
    expect(a.fields).toEqual(["resources.cpu.reservation", "resources.cpu.share"]);
    expect(a.message).toContain("reservation: at most 1,000,000,000,000 (got 1e+300)");
  });
});

describe("the HTTP edge", () => {
  it("a batch of 1,000 pools.tree calls is refused before any runs", async () => {
    const paths = Array.from({ length: 1_000 }, () => "pools.tree").join(",");
    const a = await call(api.url, paths, { query: "batch=1" });
    const { message } = refused(a);
    expect(message).toBe("a batch has at most 50 calls (got 1,000)");
    expect(JSON.parse(a.text)).toHaveLength(1_000);
  });

  it("a body that says nothing of its size is counted while read, and refused past the limit", async () => {
    const chunk = new TextEncoder().encode(`{"json":{"q":"${"x".repeat(1024 * 1024)}`);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 3; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const started = performance.now();
    const res = await fetch(`${api.url}/api/trpc/pools.create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await res.text()).toContain(
      "a request body has at most 2,097,152 bytes (got more than 2,097,152)",
    );
  });

  it("a request over its time budget is answered 504 with a sentence", async () => {
    const slow = await serveApi(
      () => ({
        ...ctx,
        gateway: { ...ctx.gateway, ping: () => new Promise<void>((r) => setTimeout(r, 1_000)) },
      }),
      { timeBudgetMs: 100 },
    );
    try {
      const a = await query(slow.url, "system.health");
      expect(a.status).toBe(504);
      expect(a.error?.message).toMatch(
        /^the request took longer than 0\.1 s and was stopped; try again shortly \(request [0-9a-f-]{36}\)$/,
      );
    } finally {
      await slow.close();
    }
  });
});

describe("reads", () => {
  it("tasks.logs for instance 2^31", async () => {
    const a = refused(await query(api.url, "tasks.logs", { jobId, instance: 2 ** 31 }));
    expect(a.message).toBe("instance: at most 2,147,483,647 (got 2,147,483,648)");
  });

  it("a search with \\u0000", async () => {
    const a = refused(await query(api.url, "search.query", { q: "a\u0000b" }));
    expect(a.message).toBe("q: must not contain NUL bytes (\\u0000)");
  });

  it.each(["jobs.events", "tasks.events", "pools.history"])(
    "%s with a cursor of 400 nines",
    async (path) => {
      const input =
        path === "jobs.events"
          ? { id: jobId, cursor: "9".repeat(400) }
          : path === "tasks.events"
            ? { jobId, instance: 0, cursor: "9".repeat(400) }
            : { path: pool, cursor: "9".repeat(400) };
      const a = refused(await query(api.url, path, input));
      expect(a.message).toBe("cursor: at most 19 characters (got 400)");
    },
  );

  it("a cursor past PostgreSQL's bigint", async () => {
    const a = refused(await query(api.url, "jobs.events", { id: jobId, cursor: "9".repeat(19) }));
    expect(a.message).toBe("cursor: cursor is a value from an earlier page's nextCursor");
  });
});
