import { ChangeListener } from "@peloton/storage";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { silentLogger } from "../src/common/logger.ts";
import { createEntitlementSampler } from "../src/resmgr/respool/sampler.ts";
import { createRespoolService } from "../src/resmgr/respool/service.ts";

const gateway = testGateway();
afterAll(() => gateway.close());

let clock = new Date("2026-05-01T00:00:00Z").getTime();
const now = () => new Date(clock);
const advance = (ms: number) => {
  clock += ms;
};

async function sampleCount(): Promise<number> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM entitlement_samples",
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

async function givenHost(cpu: number) {
  await gateway.hosts.upsert({
    hostname: "h1",
    agentId: "a1",
    attributes: {},
    cpu,
    memMb: 0,
    diskMb: 0,
    gpu: 0,
    ports: [],
    state: "UP",
  });
}

beforeEach(async () => {
  await resetDatabase();
  await givenHost(10);
  const service = createRespoolService(gateway, { now });
  for (const name of ["a", "b"]) {
    const made = await service.create({
      path: `/${name}`,
      config: { name, resources: [{ kind: "cpu", reservation: 1, limit: 10, share: 1 }] },
      acting: { login: "test", via: "test" },
    });
    expect(made.ok).toBe(true);
  }
});

describe("entitlement sampler", () => {
  it("stores what changed since its last round, every pool after the keep-alive, and drops old samples", async () => {
    const sampler = createEntitlementSampler({
      gateway,
      log: silentLogger(),
      now,
      keepAliveMs: 10 * 60_000,
      retentionMs: 60 * 60_000,
    });
    const created = await sampleCount(); // each create stored the pools it moved
    advance(1000);
    expect(await sampler.sample()).toEqual({ stored: 8, removed: 0 }); // 2 pools × 4 kinds
    advance(30_000);
    expect((await sampler.sample()).stored).toBe(0);
    await givenHost(20); // more capacity: both pools' cpu entitlement moves
    advance(30_000);
    expect((await sampler.sample()).stored).toBe(2);
    advance(10 * 60_000);
    expect((await sampler.sample()).stored).toBe(8);
    // Two hours on, retention (1 h) drops everything but the round it just stored.
    advance(2 * 60 * 60_000);
    const round = await sampler.sample();
    expect(round.stored).toBe(8);
    expect(round.removed).toBe(created + 8 + 2 + 8);
    expect(await sampleCount()).toBe(8);
  });

  it("runs a round soon after pools, tasks or hosts change", async () => {
    const changes = new ChangeListener(inject("databaseUrl"), { coalesceMs: 10 });
    const sampler = createEntitlementSampler({
      gateway,
      changes,
      log: silentLogger(),
      periodMs: 60 * 60_000,
      minIntervalMs: 50,
    });
    try {
      await waitFor(async () => changes.state === "listening");
      sampler.start();
      await waitFor(async () => (await sampleCount()) > 0);
      const before = await sampleCount();
      await givenHost(40);
      await waitFor(async () => (await sampleCount()) > before);
    } finally {
      await sampler.stop();
      await changes.stop();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}
