import { testContext } from "@peloton/test-support/api/context.ts";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createCaller, type LiveMessage } from "../src/index.ts";

const ctx = testContext();
afterAll(() => ctx.close());

/** Cuts this database's LISTEN connection from the server side, as a PostgreSQL restart would. */
async function terminateListener(): Promise<number> {
  const admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pg_terminate_backend(pid) AS ok, pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN %'`,
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

/** Reads messages from a live stream until `until` holds or the time is up. */
async function collect(
  stream: AsyncIterable<LiveMessage>,
  until: (seen: LiveMessage[]) => boolean,
  ms = 3_000,
): Promise<LiveMessage[]> {
  const seen: LiveMessage[] = [];
  const it = stream[Symbol.asyncIterator]();
  const deadline = Date.now() + ms;
  while (!until(seen) && Date.now() < deadline) {
    const next = await Promise.race([
      it.next(),
      new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
    ]);
    if (next === null || next.done) break;
    seen.push(next.value);
  }
  await it.return?.();
  return seen;
}

async function listening() {
  for (let i = 0; i < 100 && ctx.changes.state !== "listening"; i++)
    await new Promise((r) => setTimeout(r, 20));
}

describe("live.changes", () => {
  it("starts with a resync, then delivers committed changes of the wanted topics only", async () => {
    await listening();
    const abort = new AbortController();
    const caller = createCaller(ctx, { signal: abort.signal });
    const stream = await caller.live.changes({ topics: ["pools"] });
    const reading = collect(stream, (seen) => seen.some((m) => m.kind === "change"));
    await new Promise((r) => setTimeout(r, 50));
    await ctx.gateway.transaction(async (tx) => {
      await tx.changes.announce({ topic: "hosts", keys: ["h1"] });
      await tx.changes.announce({ topic: "pools", keys: ["/a"] });
    });
    const seen = await reading;
    abort.abort();
    expect(seen[0]).toEqual({ kind: "resync" });
    expect(seen.filter((m) => m.kind === "change")).toEqual([
      { kind: "change", topic: "pools", keys: ["/a"] },
    ]);
  });

  it("says nothing of a rolled-back transaction, and merges changes that arrive together", async () => {
    await listening();
    const abort = new AbortController();
    const stream = await createCaller(ctx, { signal: abort.signal }).live.changes({
      topics: ["jobs"],
    });
    const reading = collect(stream, (seen) => seen.some((m) => m.kind === "change"), 1_500);
    await new Promise((r) => setTimeout(r, 50));
    await ctx.gateway
      .transaction(async (tx) => {
        await tx.changes.announce({ topic: "jobs", keys: ["rolled-back"] });
        throw new Error("abort the transaction");
      })
      .catch(() => undefined);
    await ctx.gateway.changes.announce({ topic: "jobs", keys: ["j1"] });
    await ctx.gateway.changes.announce({ topic: "jobs", keys: ["j2", "j1"] });
    const seen = await reading;
    abort.abort();
    expect(seen.filter((m) => m.kind === "change")).toEqual([
      { kind: "change", topic: "jobs", keys: ["j1", "j2"] },
    ]);
  });

  it("says it is alive every 2 s and whether the feed hears the database; a cut feed is reported at once, then resynced", async () => {
    await listening();
    const abort = new AbortController();
    const stream = await createCaller(ctx, { signal: abort.signal }).live.changes({
      topics: ["jobs"],
    });
    const it = stream[Symbol.asyncIterator]();
    const next = async () => (await it.next()).value as LiveMessage;
    expect(await next()).toEqual({ kind: "resync" });
    expect(await next()).toEqual({ kind: "heartbeat", everyMs: 2_000, feed: "listening" });
    const quietFrom = Date.now();
    expect(await next()).toEqual({ kind: "heartbeat", everyMs: 2_000, feed: "listening" });
    expect(Date.now() - quietFrom).toBeGreaterThan(1_500);
    expect(Date.now() - quietFrom).toBeLessThan(2_500);

    expect(await terminateListener()).toBe(1);
    const cutAt = Date.now();
    let m = await next();
    while (m.kind === "heartbeat" && m.feed === "listening") m = await next();
    expect(m).toEqual({ kind: "heartbeat", everyMs: 2_000, feed: "down" });
    expect(Date.now() - cutAt).toBeLessThan(1_000);
    // The listener reconnects by itself; what was announced meanwhile is lost, so: resync.
    do m = await next();
    while (m.kind === "heartbeat");
    expect(m).toEqual({ kind: "resync" });
    abort.abort();
    await it.return?.();
  });
});
