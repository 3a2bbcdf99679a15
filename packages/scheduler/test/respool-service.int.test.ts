import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createRespoolService } from "../src/resmgr/respool/service.ts";

// Two replicas of the console: each its own gateway (connection pool) on one database.
const gatewayA = testGateway();
const gatewayB = testGateway();
afterAll(async () => {
  await gatewayA.close();
  await gatewayB.close();
});
const replicaA = createRespoolService(gatewayA);
const replicaB = createRespoolService(gatewayB);

const config = (name: string, reservation: number) => ({
  name,
  resources: [{ kind: "cpu", reservation, limit: 10, share: 1 }],
});

beforeEach(async () => {
  await resetDatabase();
  await gatewayA.hosts.upsert({
    hostname: "h1",
    agentId: "a1",
    attributes: {},
    cpu: 10,
    memMb: 0,
    diskMb: 0,
    gpu: 0,
    ports: [],
    state: "UP",
  });
});

describe("respool service across replicas", () => {
  it("shows a change another replica committed on the next read (pools are reused only while unchanged)", async () => {
    expect(
      (
        await replicaB.create({
          path: "/a",
          config: config("a", 1),
          acting: { login: "b", via: "test" },
        })
      ).ok,
    ).toBe(true);
    const first = await replicaA.tree();
    expect(first.pools.map((p) => p.resources.cpu.reservation)).toEqual([1]);
    expect(await replicaA.tree()).toEqual(first);
    const updated = await replicaB.update({
      path: "/a",
      version: 1,
      config: config("a", 2),
      acting: { login: "b", via: "test" },
    });
    expect(updated.ok).toBe(true);
    expect(
      (await replicaA.tree()).pools.map((p) => [p.resources.cpu.reservation, p.version]),
    ).toEqual([[2, 2]]);
    await replicaB.delete({ path: "/a", acting: { login: "b", via: "test" } });
    expect((await replicaA.tree()).pools).toEqual([]);
  });
});
