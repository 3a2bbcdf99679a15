/**
 * Deadlocks are retried: two transactions lock two rows in opposite orders,
 * PostgreSQL aborts one of them (40P01), and the gateway runs it again.
 */

import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { isTransientConflict, openGateway, type StorageGateway } from "../src/index.ts";

const url = inject("databaseUrl");
const gateways: StorageGateway[] = [];
afterEach(async () => {
  for (const g of gateways.splice(0)) await g.close();
});
beforeEach(() => resetDatabase());

function gatewayWith(attempts: number): StorageGateway {
  const g = openGateway(url, { max: 4, retry: { attempts, baseMs: 10, maxMs: 50 } });
  gateways.push(g);
  return g;
}

/** Resolves once both sides have called `arrive()`: each holds its first row lock by then. */
function barrier() {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    if (++arrived === 2) open();
    await opened;
  };
}

/** Two transactions updating frameworks a and b in opposite orders: a deadlock on the first try. */
async function crossUpdates(gateway: StorageGateway) {
  await gateway.cluster.saveFramework("a", "0", "m");
  await gateway.cluster.saveFramework("b", "0", "m");
  const arrive = barrier();
  const runs = { ab: 0, ba: 0 };
  const ab = gateway.transaction(async (tx) => {
    runs.ab++;
    await tx.cluster.saveFramework("a", "ab", "m");
    await arrive();
    await tx.cluster.saveFramework("b", "ab", "m");
  });
  const ba = gateway.transaction(async (tx) => {
    runs.ba++;
    await tx.cluster.saveFramework("b", "ba", "m");
    await arrive();
    await tx.cluster.saveFramework("a", "ba", "m");
  });
  return { outcomes: await Promise.allSettled([ab, ba]), runs };
}

describe("transaction retry", () => {
  it("without retries the crossed updates really deadlock", async () => {
    const { outcomes } = await crossUpdates(gatewayWith(1));
    const failed = outcomes.filter((o) => o.status === "rejected");
    expect(failed).toHaveLength(1);
    expect(isTransientConflict((failed[0] as PromiseRejectedResult).reason)).toBe(true);
  });

  it("the deadlock victim is run again and both transactions commit", async () => {
    const gateway = gatewayWith(6);
    const { outcomes, runs } = await crossUpdates(gateway);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled"]);
    // One of them ran twice: PostgreSQL chose it as the victim.
    expect(runs.ab + runs.ba).toBe(3);
    const a = await gateway.cluster.framework("a");
    const b = await gateway.cluster.framework("b");
    // The retried one committed last, so it wrote both rows.
    expect(a?.frameworkId).toBe(b?.frameworkId);
  });
});
