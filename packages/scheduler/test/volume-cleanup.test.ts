import type { Offer, Resource } from "@peloton/mesos";
import { describe, expect, it } from "vitest";
import { offeredVolumes, releaseOperations } from "../src/hostmgr/mesos/volume-cleanup.ts";

const reserved = (role: string) => ({
  role,
  reservations: [{ type: "DYNAMIC" as const, role, principal: role }],
  allocation_info: { role },
});

const volume = (id: string, role = "peloton", extra: Partial<Resource> = {}): Resource => ({
  name: "disk",
  type: "SCALAR",
  scalar: { value: 256 },
  ...reserved(role),
  disk: { persistence: { id, principal: role }, volume: { container_path: "data", mode: "RW" } },
  ...extra,
});

const offer = (id: string, resources: Resource[]): Offer => ({
  id: { value: id },
  framework_id: { value: "fw" },
  agent_id: { value: "agent-1" },
  hostname: "a-1.test",
  resources,
});

describe("offeredVolumes", () => {
  it.each([
    ["a volume of our role", [volume("v1")], ["v1"]],
    ["another role's volume", [volume("v2", "other")], []],
    [
      "reserved disk without a volume",
      [{ name: "disk", type: "SCALAR", scalar: { value: 10 }, ...reserved("peloton") } as Resource],
      [],
    ],
    ["unreserved disk", [{ name: "disk", type: "SCALAR", scalar: { value: 10 } } as Resource], []],
    ["two volumes", [volume("v1"), volume("v3")], ["v1", "v3"]],
  ])("%s", (_name, resources, ids) => {
    const found = offeredVolumes([offer("o1", resources)], "peloton");
    expect(found.map((v) => v.persistenceId)).toEqual(ids);
    for (const v of found) expect(v).toMatchObject({ offerId: "o1", hostname: "a-1.test" });
  });
});

describe("releaseOperations", () => {
  it("destroys the volume, then unreserves its disk as plain reserved disk", () => {
    const v = volume("v1");
    const [destroy, unreserve] = releaseOperations(v);
    expect(destroy).toEqual({ type: "DESTROY", destroy: { volumes: [v] } });
    expect(unreserve).toEqual({
      type: "UNRESERVE",
      unreserve: {
        resources: [
          { name: "disk", type: "SCALAR", scalar: { value: 256 }, ...reserved("peloton") },
        ],
      },
    });
  });

  it("keeps the source of a MOUNT disk", () => {
    const source = { type: "MOUNT" as const, mount: { root: "/mnt/d1" } };
    const v = volume("v1", "peloton", {
      disk: { persistence: { id: "v1" }, volume: { container_path: "d", mode: "RW" }, source },
    });
    expect(releaseOperations(v)[1]).toMatchObject({
      type: "UNRESERVE",
      unreserve: { resources: [{ disk: { source } }] },
    });
  });
});
