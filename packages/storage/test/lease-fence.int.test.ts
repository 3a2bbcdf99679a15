/**
 * The lease fence, against the real database: a writer fenced by an epoch
 * is refused by PostgreSQL once a new leader claimed the lease; writes
 * without a fence (the API's, for users) are not; the epoch bump waits for
 * a fenced transaction in flight while the holder's renewals do not.
 */

import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import {
  isDatabaseUnavailable,
  isFencedOut,
  LeaseSession,
  openGateway,
  type StorageGateway,
} from "../src/index.ts";

const url = inject("databaseUrl");
const gateway = testGateway();
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function session(lease = "scheduler"): Promise<LeaseSession> {
  const s = await LeaseSession.open(url, { lease });
  opened.push(s);
  return s;
}

function fenced(epoch: bigint, lease = "scheduler"): StorageGateway {
  const g = openGateway(url, { max: 2, fence: { lease, epoch } });
  opened.push(g);
  return g;
}

async function raw(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe("lease fence", () => {
  it("is on every table but the lease itself", async () => {
    const unfenced = await raw(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND c.relname NOT IN ('scheduler_leases', '_prisma_migrations')
          AND NOT EXISTS (SELECT 1 FROM pg_trigger t
                           WHERE t.tgrelid = c.oid AND t.tgname = 'peloton_lease_fence')`,
    );
    // A new table needs `SELECT peloton_attach_lease_fences();` at the end of its migration.
    expect(unfenced.map((r) => r.relname)).toEqual([]);
  });

  it("each claim moves the lease to the next epoch", async () => {
    const a = await session();
    expect(await a.tryAcquire()).toBe(true);
    const first = await a.claim("replica-a");
    await a.close();
    const b = await session();
    expect(await b.tryAcquire()).toBe(true);
    const second = await b.claim("replica-b");
    expect(second).toBe(first + 1n);
    expect(await gateway.cluster.lease("scheduler")).toMatchObject({
      holder: "replica-b",
      epoch: Number(second),
    });
  });

  it("refuses the writes of an earlier epoch, and only those", async () => {
    const a = await session();
    await a.tryAcquire();
    const old = await a.claim("replica-a");
    const deposed = fenced(old);
    await deposed.cluster.saveFramework("peloton", "fw-1", "http://m:5050");

    await a.close();
    const b = await session();
    await b.tryAcquire();
    const current = await b.claim("replica-b");
    // The claim ends the old epoch's connections; the deposed pool may hand
    // out one of them before it has noticed (a refusal too, but not the
    // fence's). The next try gets a new connection, which the fence refuses.
    const oldWrite = () =>
      deposed.cluster.saveFramework("peloton", "fw-old", "http://m:5050").catch((e: unknown) => e);
    let err = await oldWrite();
    if (isDatabaseUnavailable(err)) err = await oldWrite();
    expect(isFencedOut(err)).toBe(true);
    expect((await gateway.cluster.framework("peloton"))?.frameworkId).toBe("fw-1");
    // Inside a transaction too, and the whole transaction is rolled back.
    const txErr = await deposed
      .transaction(async (tx) => {
        await tx.cluster.forgetFramework("peloton");
      })
      .catch((e: unknown) => e);
    expect(isFencedOut(txErr)).toBe(true);

    await fenced(current).cluster.saveFramework("peloton", "fw-2", "http://m:5050");
    // The API's writes carry no fence.
    await gateway.cluster.saveFramework("peloton", "fw-3", "http://m:5050");
    expect((await gateway.cluster.framework("peloton"))?.frameworkId).toBe("fw-3");
  });

  it("a write with a fence for a lease that was never claimed is refused", async () => {
    const err = await fenced(1n, "nobody")
      .cluster.saveFramework("peloton", "fw", "http://m:5050")
      .catch((e: unknown) => e);
    expect(isFencedOut(err)).toBe(true);
  });

  it("a new epoch waits for the old one's transaction in flight; renewals do not", async () => {
    const a = await session();
    await a.tryAcquire();
    const old = await a.claim("replica-a");
    // An old-epoch transaction that wrote and has not committed yet.
    const client = new pg.Client({
      connectionString: url,
      options: `-c peloton.lease=scheduler -c peloton.lease_epoch=${old}`,
    });
    await client.connect();
    opened.push({ close: () => client.end() });
    await client.query("BEGIN");
    await client.query(
      "INSERT INTO mesos_frameworks (name, framework_id, master_url, updated_at) VALUES ('peloton', 'fw-a', 'm', now())",
    );
    // The holder's renewal is not held up by its own fenced transaction.
    const renewStarted = performance.now();
    expect(await a.renew(old, "replica-a")).toBe(true);
    expect(performance.now() - renewStarted).toBeLessThan(500);

    // The bump (run here without ending the old writers first) waits for the commit.
    const bumped = raw(
      "UPDATE scheduler_leases SET epoch = epoch + 1 WHERE name = 'scheduler' RETURNING epoch",
    );
    let bumpedYet = false;
    void bumped.then(() => {
      bumpedYet = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(bumpedYet).toBe(false);
    await client.query("COMMIT");
    await bumped;
    // Committed before the bump: kept. After it, the same connection is refused.
    expect((await gateway.cluster.framework("peloton"))?.frameworkId).toBe("fw-a");
    await expect(client.query("DELETE FROM mesos_frameworks")).rejects.toMatchObject({
      code: "PLF01",
    });
    expect(await a.renew(old, "replica-a")).toBe(false);
  });

  it("a renewal answered while the process was busy is not mistaken for a lost session", async () => {
    const a = await session();
    await a.tryAcquire();
    const epoch = await a.claim("replica-a");
    const renewal = a.renew(epoch, "replica-a");
    // Heavy work blocks the event loop past the renewal's 1 s deadline; the
    // answer arrived meanwhile and waits in the socket.
    const until = performance.now() + 1_500;
    while (performance.now() < until);
    expect(await renewal).toBe(true);
    expect(a.lost).toBe(false);
  });

  it("claiming ends the earlier epoch's write connections", async () => {
    const a = await session();
    await a.tryAcquire();
    const old = await a.claim("replica-a");
    const deposed = fenced(old);
    await deposed.cluster.saveFramework("peloton", "fw-1", "m");
    const before = await raw(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
      [`peloton leader scheduler epoch ${old}`],
    );
    expect(before[0].n).toBeGreaterThan(0);
    await a.close();
    const b = await session();
    await b.tryAcquire();
    await b.claim("replica-b");
    const after = await raw(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
      [`peloton leader scheduler epoch ${old}`],
    );
    expect(after[0].n).toBe(0);
  });
});
