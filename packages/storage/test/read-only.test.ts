/**
 * The read-only view: the compiler refuses a write through it (the
 * `@ts-expect-error` lines fail `npm run typecheck` if a write becomes
 * reachable), and at run time it holds only the listed reads.
 */
import { describe, expect, it } from "vitest";
import type { StorageGateway } from "../src/gateway.ts";
import { type ReadOnlyGateway, readOnlyView } from "../src/read-only.ts";

/** A gateway whose every method records its call: enough to see what the view forwards. */
function recordingGateway(calls: string[]): StorageGateway {
  const repo = (name: string) =>
    new Proxy(
      {},
      {
        get: (_t, method) =>
          typeof method === "string"
            ? (...args: unknown[]) => {
                calls.push(`${name}.${method}(${args.join(",")})`);
                return Promise.resolve(null);
              }
            : undefined,
      },
    );
  return new Proxy({} as StorageGateway, {
    get: (_t, prop) => {
      if (prop === "snapshot")
        return (fn: (tx: unknown) => Promise<unknown>) => fn(recordingGateway(calls));
      if (prop === "ping" || prop === "transaction" || prop === "close")
        return () => {
          calls.push(String(prop));
          return Promise.resolve();
        };
      return repo(String(prop));
    },
  });
}

describe("readOnlyView", () => {
  it("forwards reads, and has no write, transaction or close", async () => {
    const calls: string[] = [];
    const view: ReadOnlyGateway = readOnlyView(recordingGateway(calls));
    await view.hosts.get("h1");
    await view.snapshot((tx) => tx.jobs.get("j1"));
    await view.ping();
    expect(calls).toEqual(["hosts.get(h1)", "jobs.get(j1)", "ping"]);

    const loose = view as unknown as Record<string, Record<string, unknown> | undefined>;
    expect(loose.hosts?.changeState).toBeUndefined();
    expect(loose.audit?.record).toBeUndefined();
    expect(loose.transaction).toBeUndefined();
    expect(loose.close).toBeUndefined();
    expect(loose.tasks).toBeUndefined();
  });

  it("does not compile a write", () => {
    const view = readOnlyView(recordingGateway([]));
    // Each line is a compile error; the closure is never called.
    const writes = () => [
      // @ts-expect-error a host's state is the host manager's to write
      view.hosts.changeState("h1", "DRAINING", "why"),
      // @ts-expect-error audit rows are written with the change they record
      view.audit.record({}),
      // @ts-expect-error no transactions through the view
      view.transaction(async () => undefined),
      // @ts-expect-error nor inside a snapshot
      view.snapshot((tx) => tx.pools.create({}, "me")),
    ];
    expect(typeof writes).toBe("function");
  });
});
