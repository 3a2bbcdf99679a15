import { testContext } from "@peloton/test-support/api/context.ts";
import { afterAll, describe, expect, it } from "vitest";
import { createCaller, type LiveMessage } from "../src/index.ts";

const ctx = testContext();
afterAll(() => ctx.close());

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
});
