/**
 * v1alpha HostService and VolumeService over gRPC: hosts queried by state,
 * maintenance started and completed (docs/host-maintenance.md); a stateful
 * job's volumes listed and read; bad requests refused naming the field
 * with nothing changed; host pools and DeleteVolume UNIMPLEMENTED.
 */
import { Code } from "@connectrpc/connect";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HostState } from "../src/generated/peloton/api/v1alpha/host/host_pb.ts";
import { HostService } from "../src/generated/peloton/api/v1alpha/host/svc/host_svc_pb.ts";
import { VolumeService } from "../src/generated/peloton/api/v1alpha/volume/svc/volume_svc_pb.ts";
import { VolumeState } from "../src/generated/peloton/api/v1alpha/volume/volume_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

async function host(hostname: string, zone: string): Promise<void> {
  await served.context.gateway.hosts.upsert({
    hostname,
    agentId: `agent-${hostname}`,
    attributes: { zone },
    cpu: 8,
    memMb: 8192,
    diskMb: 100_000,
    gpu: 0,
    ports: [[31000, 32000]],
    state: "UP",
  });
}

describe("v1alpha HostService", () => {
  it("queries hosts by state and takes one through maintenance", async () => {
    await host("h1", "a");
    await host("h2", "b");
    const hosts = grpcClient(served, HostService);
    const all = await hosts.queryHosts({});
    expect(all.hostInfos.map((h) => [h.hostname, h.state, h.goalState])).toEqual([
      ["h1", HostState.UP, HostState.UP],
      ["h2", HostState.UP, HostState.UP],
    ]);
    expect(all.hostInfos[0]?.labels).toEqual([
      expect.objectContaining({ key: "zone", value: "a" }),
    ]);

    expect(await hosts.startMaintenance({ hostname: "h1" })).toMatchObject({ hostname: "h1" });
    const draining = await hosts.queryHosts({
      hostStates: [HostState.DRAINING, HostState.DRAINED, HostState.DOWN],
    });
    expect(draining.hostInfos.map((h) => [h.hostname, h.goalState])).toEqual([
      ["h1", HostState.DOWN],
    ]);
    // The deprecated list, with one host, still works.
    expect(await hosts.completeMaintenance({ hostnames: ["h1"] })).toMatchObject({
      hostname: "h1",
    });
    const after = await served.caller.hosts.get({ hostname: "h1" });
    expect(after.goalState).toBe("UP");
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a bad request naming the field and changes nothing", async () => {
    await host("h1", "a");
    await host("h2", "a");
    const hosts = grpcClient(served, HostService);
    const two = await refusal(hosts.startMaintenance({ hostnames: ["h1", "h2"] }));
    expect(two.code).toBe(Code.Unimplemented);
    expect(two.message).toMatch(/^hostnames: /);
    const both = await refusal(hosts.startMaintenance({ hostname: "h1", hostnames: ["h2"] }));
    expect(both.code).toBe(Code.InvalidArgument);
    expect(both.message).toMatch(/^hostnames: /);
    const none = await refusal(hosts.startMaintenance({}));
    expect(none.code).toBe(Code.InvalidArgument);
    expect(none.message).toContain("hostname");
    const unknown = await refusal(hosts.startMaintenance({ hostname: "nope" }));
    expect(unknown.code).toBe(Code.NotFound);
    expect((await served.caller.hosts.list({})).items.map((h) => h.state)).toEqual(["UP", "UP"]);

    const pools = await refusal(hosts.listHostPools({}));
    expect(pools.code).toBe(Code.Unimplemented);
    expect(pools.message).toContain("host pools do not exist");
  });
});

describe("v1alpha VolumeService", () => {
  it("lists a stateful job's volumes and reads one", async () => {
    const pool = await leafPool(served.context.gateway, "stateful");
    const { id } = await served.caller.jobs.create({
      pool,
      yaml: `name: ledger
type: SERVICE
instanceCount: 2
defaultConfig:
  resource: { cpuLimit: 0.5, memLimitMb: 64, diskLimitMb: 16 }
  command: { value: "sleep 600" }
  volume: { containerPath: /var/lib/ledger, sizeMB: 2048 }
`,
    });
    const tasks = await served.caller.tasks.list({ jobId: id });
    await served.context.gateway.volumes.pin(
      tasks.items.map((t) => ({
        id: `${id}-${t.instanceId}`,
        jobId: id,
        instanceId: t.instanceId,
        taskId: t.id,
        hostname: "h1",
        agentId: "agent-h1",
        sizeMb: 2048,
        containerPath: "/var/lib/ledger",
      })),
    );
    await served.context.gateway.volumes.markCreated([`${id}-0`]);
    const volumes = grpcClient(served, VolumeService);

    const listed = await volumes.listVolumes({ jobId: { value: id } });
    expect(Object.keys(listed.volumes).sort()).toEqual([`${id}-0`, `${id}-1`]);
    expect(listed.volumes[`${id}-0`]).toMatchObject({
      podName: { value: `${id}-0` },
      hostname: "h1",
      state: VolumeState.CREATED,
      sizeMb: 2048,
      containerPath: "/var/lib/ledger",
    });
    const one = await volumes.getVolume({ volumeId: { value: `${id}-1` } });
    expect(one.result?.state).toBe(VolumeState.INITIALIZED);

    const missing = await refusal(volumes.getVolume({ volumeId: { value: `${id}-9` } }));
    expect(missing.code).toBe(Code.NotFound);
    const noJob = await refusal(volumes.listVolumes({}));
    expect([noJob.code, noJob.message]).toEqual([
      Code.InvalidArgument,
      expect.stringMatching(/^jobId\.value: /),
    ]);
    const deleted = await refusal(volumes.deleteVolume({ volumeId: { value: `${id}-0` } }));
    expect(deleted.code).toBe(Code.Unimplemented);
    expect((await volumes.getVolume({ volumeId: { value: `${id}-0` } })).result?.state).toBe(
      VolumeState.CREATED,
    );
    expect(served.internalErrors).toEqual([]);
  });
});
