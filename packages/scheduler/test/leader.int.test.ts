/** Leader election: two replicas on one database, one leads; its session dies, the other takes over. */
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { resetDatabase, testGateway } from "../../storage/test/support/gateway.ts";
import { startScheduler } from "../src/runtime/scheduler.ts";
import { log, onCleanup, testSim } from "./support/cluster.ts";
import { sql } from "./support/db.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

function replica(holder: string, masterUrl: string) {
  const runtime = startScheduler({
    databaseUrl: inject("databaseUrl"),
    masterUrl,
    log,
    holder,
    election: { retryMs: 100, renewMs: 200 },
    hostManager: { hostRefreshMs: 200, client: { backoff: { initialMs: 20, maxMs: 200 } } },
  });
  onCleanup(() => runtime.stop());
  return runtime;
}

describe("leader election", () => {
  it("one of two replicas leads and runs the host manager; when its session dies the other takes over", async () => {
    const sim = await testSim();
    const a = replica("replica-a", sim.url);
    await a.ready();
    const b = replica("replica-b", sim.url);
    await new Promise((r) => setTimeout(r, 400));
    expect([a.leading, b.leading]).toEqual([true, false]);
    expect(b.hostManager).toBeUndefined();
    const [lease] = await sql<{ holder: string }>("SELECT holder FROM scheduler_leases");
    expect(lease?.holder).toBe("replica-a");
    const frameworkId = a.hostManager!.frameworkId;

    // The leader's database session is killed (a crash, a partition): it must step down.
    await sql("SELECT pg_terminate_backend($1)", [a.lockBackendPid]);
    await expect.poll(() => b.leading, { timeout: 5000 }).toBe(true);
    await b.ready();
    expect(a.leading).toBe(false);
    expect(a.hostManager).toBeUndefined();
    // The new leader subscribes as the same framework.
    expect(b.hostManager!.frameworkId).toBe(frameworkId);
    expect((await sql<{ holder: string }>("SELECT holder FROM scheduler_leases"))[0]?.holder).toBe(
      "replica-b",
    );
  });

  it("a stopped leader releases the lock at once", async () => {
    const sim = await testSim();
    const a = replica("replica-a", sim.url);
    await a.ready();
    const b = replica("replica-b", sim.url);
    await a.stop();
    await expect.poll(() => b.leading, { timeout: 3000 }).toBe(true);
  });
});
