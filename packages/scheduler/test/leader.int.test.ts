/** Leader election: two replicas on one database, one leads; its session dies, the other takes over. */

import { readFileSync } from "node:fs";
import { isFencedOut, openGateway } from "@peloton/storage";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { startScheduler } from "../src/assembly/replica.ts";
import { PeriodicLoop } from "../src/common/loop.ts";
import { mesosHostAdapter } from "../src/hostmgr/mesos/mesos-adapter.ts";
import type { MesosHostManager } from "../src/hostmgr/mesos/mesos-host-manager.ts";
import { log, onCleanup, testSim } from "./support/cluster.ts";

const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

function replica(holder: string, masterUrl: string) {
  const runtime = startScheduler({
    databaseUrl: inject("databaseUrl"),
    adapter: mesosHostAdapter({
      master: masterUrl,
      hostRefreshMs: 200,
      client: { backoff: { initialMs: 20, maxMs: 200 } },
    }),
    log,
    holder,
    election: { retryMs: 100, renewMs: 200 },
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
    const [lease] = await directSql<{ holder: string }>("SELECT holder FROM scheduler_leases");
    expect(lease?.holder).toBe("replica-a");
    const frameworkId = (a.hostManager as MesosHostManager).frameworkId;

    // The leader's database session is killed (a crash, a partition): it must step down.
    await directSql("SELECT pg_terminate_backend($1)", [a.lockBackendPid]);
    await expect.poll(() => b.leading, { timeout: 5000 }).toBe(true);
    await b.ready();
    expect(a.leading).toBe(false);
    expect(a.hostManager).toBeUndefined();
    // The new leader subscribes as the same framework.
    expect((b.hostManager as MesosHostManager).frameworkId).toBe(frameworkId);
    expect(
      (await directSql<{ holder: string }>("SELECT holder FROM scheduler_leases"))[0]?.holder,
    ).toBe("replica-b");
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

describe("lease fencing", () => {
  it("a leader whose lease session is cut stops its subscription and loops within 2 s; its epoch's writes are refused", async () => {
    const sim = await testSim();
    const ticks: number[] = [];
    let slowTickStarted = false;
    const a = startScheduler({
      databaseUrl: inject("databaseUrl"),
      adapter: mesosHostAdapter({
        master: sim.url,
        hostRefreshMs: 200,
        client: { backoff: { initialMs: 20, maxMs: 200 } },
      }),
      log,
      holder: "replica-a",
      extraLoops: () => [
        new PeriodicLoop({
          name: "ticker",
          periodMs: 20,
          log,
          tick: async () => void ticks.push(performance.now()),
        }),
        // A tick that takes far longer than the deposition may: it must not hold it up.
        new PeriodicLoop({
          name: "slow",
          periodMs: 60_000,
          log,
          tick: async () => {
            slowTickStarted = true;
            await new Promise((r) => setTimeout(r, 10_000));
          },
        }),
      ],
    });
    onCleanup(() => a.stop());
    await a.ready();
    const epochA = a.epoch!;
    const hostManagerA = a.hostManager!;
    expect(slowTickStarted).toBe(true);
    const b = replica("replica-b", sim.url);

    const cut = performance.now();
    await directSql("SELECT pg_terminate_backend($1)", [a.lockBackendPid]);
    await expect
      .poll(() => !a.leading && hostManagerA.state === "stopped" && a.hostManager === undefined, {
        timeout: 2_000,
        interval: 10,
      })
      .toBe(true);
    // Loops stopped: no tick after the deposition (one may have been running at the cut).
    await new Promise((r) => setTimeout(r, 300));
    const lastTick = ticks.at(-1)!;
    expect(lastTick - cut).toBeLessThan(2_000);
    const count = ticks.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(ticks.length).toBe(count);

    // The standby takes over with a later epoch; the old epoch can no longer write.
    await expect.poll(() => b.leading, { timeout: 5_000 }).toBe(true);
    expect(b.epoch!).toBeGreaterThan(epochA);
    const deposed = openGateway(inject("databaseUrl"), {
      max: 1,
      fence: { lease: "scheduler", epoch: epochA },
    });
    onCleanup(() => deposed.close());
    const refused = await deposed.cluster
      .saveFramework("peloton", "stale", sim.url)
      .catch((err: unknown) => err);
    expect(isFencedOut(refused)).toBe(true);
    await b.ready();
  });

  it("a leader whose lease session stops answering (a hung server or network) steps down within 2 s", async (ctx) => {
    const sim = await testSim();
    const a = replica("replica-a", sim.url);
    await a.ready();
    const pid = a.lockBackendPid!;
    // The session's server process must be on this machine and ours to signal.
    const local = (() => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
      } catch {
        return false;
      }
    })();
    if (!local) ctx.skip();
    // SIGSTOP: the connection stays open but nothing answers, as in a partition.
    process.kill(pid, "SIGSTOP");
    try {
      const stopped = performance.now();
      await expect.poll(() => a.leading, { timeout: 2_000, interval: 10 }).toBe(false);
      expect(performance.now() - stopped).toBeLessThan(2_000);
      expect(a.hostManager).toBeUndefined();
    } finally {
      process.kill(pid, "SIGCONT");
    }
  });

  it("schedulers elected one after another have increasing epochs", async () => {
    const sim = await testSim();
    const epochs: bigint[] = [];
    for (const holder of ["replica-a", "replica-b", "replica-c"]) {
      const r = replica(holder, sim.url);
      await expect.poll(() => r.leading, { timeout: 5_000 }).toBe(true);
      epochs.push(r.epoch!);
      await r.stop();
    }
    expect(epochs[1]).toBe(epochs[0]! + 1n);
    expect(epochs[2]).toBe(epochs[1]! + 1n);
    const [row] = await directSql<{ epoch: string; holder: string }>(
      "SELECT epoch::text, holder FROM scheduler_leases",
    );
    expect(row).toEqual({ epoch: epochs[2]!.toString(), holder: "replica-c" });
  });
});
