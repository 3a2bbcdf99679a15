/**
 * v1alpha ResourcePoolService over gRPC (and one YARPC call): the same
 * pools as v0's ResourceManager, with v1alpha's names (spec, respoolId,
 * usages); a bad spec refused naming its field, nothing stored.
 */
import { Code } from "@connectrpc/connect";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ResourceManager } from "../src/generated/peloton/api/v0/respool/respool_pb.ts";
import { ReservationType } from "../src/generated/peloton/api/v1alpha/respool/respool_pb.ts";
import { ResourcePoolService } from "../src/generated/peloton/api/v1alpha/respool/svc/respool_svc_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi, TOKEN } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(async () => {
  await resetDatabase();
  await served.context.gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "test",
  );
  // The cluster's capacity, which the root's limit is.
  await served.context.gateway.hosts.upsert({
    hostname: "h1",
    agentId: "agent-h1",
    attributes: {},
    cpu: 64,
    memMb: 65_536,
    diskMb: 1_000_000,
    gpu: 0,
    ports: [[31000, 32000]],
    state: "UP",
  });
});

const RESOURCES = [
  { kind: "cpu", reservation: 4, limit: 8, share: 1 },
  { kind: "memory", reservation: 4096, limit: 8192, share: 1, type: ReservationType.STATIC },
];

describe("v1alpha ResourcePoolService", () => {
  it("creates, reads, looks up, queries, updates and deletes a pool", async () => {
    const pools = grpcClient(served, ResourcePoolService);
    const created = await pools.createResourcePool({
      spec: { name: "infra", owningTeam: "infra", resources: RESOURCES },
    });
    expect(created.respoolId?.value).toBe("/infra");
    const child = await pools.createResourcePool({
      spec: {
        name: "batch",
        parent: { value: "/infra" },
        resources: [{ kind: "cpu", reservation: 2, limit: 4, share: 1 }],
      },
    });
    expect(child.respoolId?.value).toBe("/infra/batch");

    const got = await pools.getResourcePool({
      respoolId: { value: "/infra" },
      includeChildPools: true,
    });
    expect(got.respool).toMatchObject({
      respoolId: { value: "/infra" },
      parent: { value: "/" },
      children: [{ value: "/infra/batch" }],
      spec: { name: "infra", owningTeam: "infra" },
    });
    expect(got.respool?.spec?.resources.find((r) => r.kind === "memory")).toMatchObject({
      reservation: 4096,
      limit: 8192,
      type: ReservationType.STATIC,
    });
    expect(got.respool?.usages.map((u) => u.kind)).toContain("cpu");
    expect(got.childRespools.map((p) => p.path?.value)).toEqual(["/infra/batch"]);

    const looked = await pools.lookupResourcePoolID({ path: { value: "/infra/batch" } });
    expect(looked.respoolId?.value).toBe("/infra/batch");
    const all = await pools.queryResourcePools({});
    expect(all.respools.map((p) => p.path?.value)).toEqual(
      expect.arrayContaining(["/infra", "/infra/batch"]),
    );

    await pools.updateResourcePool({
      respoolId: { value: "/infra/batch" },
      spec: { name: "batch", resources: [{ kind: "cpu", reservation: 3, limit: 4, share: 2 }] },
    });
    const updated = await pools.getResourcePool({ respoolId: { value: "/infra/batch" } });
    expect(updated.respool?.spec?.resources.find((r) => r.kind === "cpu")).toMatchObject({
      reservation: 3,
      share: 2,
    });

    // The same pool through v0: one mapping, two versions of the message.
    const v0 = await grpcClient(served, ResourceManager).getResourcePool({
      id: { value: "/infra/batch" },
    });
    expect(v0.poolinfo?.config?.resources.find((r) => r.kind === "cpu")?.reservation).toBe(3);

    await pools.deleteResourcePool({ respoolId: { value: "/infra/batch" } });
    expect(await directSql("SELECT id FROM resource_pools WHERE path = '/infra/batch'")).toEqual(
      [],
    );
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a bad spec or id naming the field, and stores nothing", async () => {
    const pools = grpcClient(served, ResourcePoolService);
    const bad = await refusal(
      pools.createResourcePool({
        spec: { name: "x", resources: [{ kind: "cpu", reservation: 5, limit: 1, share: 1 }] },
      }),
    );
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.message).toContain("spec.resources.cpu");
    const badParent = await refusal(
      pools.createResourcePool({ spec: { name: "y", parent: { value: "infra" } } }),
    );
    expect(badParent.code).toBe(Code.InvalidArgument);
    expect(badParent.message).toContain("spec.parent.value");
    const noSpec = await refusal(pools.createResourcePool({}));
    expect([noSpec.code, noSpec.message]).toEqual([
      Code.InvalidArgument,
      expect.stringMatching(/^spec:/),
    ]);
    expect(await directSql("SELECT path FROM resource_pools WHERE path <> '/'")).toEqual([]);

    const badId = await refusal(pools.getResourcePool({ respoolId: { value: "batch" } }));
    expect(badId.code).toBe(Code.InvalidArgument);
    expect(badId.message).toContain("respoolId.value");
    const missing = await refusal(pools.getResourcePool({ respoolId: { value: "/nope" } }));
    expect(missing.code).toBe(Code.NotFound);
    expect(served.internalErrors).toEqual([]);
  });

  it("answers YARPC JSON under its full procedure name", async () => {
    const response = await fetch(served.yarpcUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "Rpc-Procedure": "peloton.api.v1alpha.respool.ResourcePoolService::CreateResourcePool",
        "Rpc-Encoding": "json",
        authorization: `Bearer ${TOKEN}`,
      },
      body: JSON.stringify({
        spec: {
          name: "web",
          resources: [
            { kind: "cpu", reservation: 1, limit: 2, share: 1, type: "RESERVATION_TYPE_ELASTIC" },
          ],
        },
      }),
    });
    const text = await response.text();
    expect([response.status, text]).toEqual([
      200,
      JSON.stringify({ respoolId: { value: "/web" } }),
    ]);
  });
});
