/**
 * v0 HostService and VolumeService over gRPC against the scratch database,
 * hosts and volumes recorded as the host manager and the placement loop
 * record them: hosts queried by state, maintenance started and completed,
 * volumes listed and read; bad requests refused with the field named and
 * nothing changed; host pools and DeleteVolume answer UNIMPLEMENTED.
 */
import { Code } from "@connectrpc/connect";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HostState } from "../src/generated/peloton/api/v0/host/host_pb.ts";
import { HostService } from "../src/generated/peloton/api/v0/host/svc/host_svc_pb.ts";
import { VolumeService } from "../src/generated/peloton/api/v0/volume/svc/volume_svc_pb.ts";
import { VolumeState } from "../src/generated/peloton/api/v0/volume/volume_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

async function cluster(): Promise<void> {
  await served.context.gateway.hosts.recordRegistered(
    [1, 2, 3].map((i) => ({
      hostname: `node-${i}.test`,
      agentId: `agent-${i}`,
      agentUrl: `http://10.0.0.${i}:5051/slave(1)`,
      attributes: { zone: i % 2 ? "a" : "b" },
      cpu: 8,
      memMb: 16384,
      diskMb: 100_000,
      gpu: 0,
      ports: [[31000, 32000]],
    })),
  );
  await served.context.gateway.hosts.markAgentsLost(["agent-3"], "lost");
}

describe("HostService (v0) over gRPC", () => {
  it("queries hosts by state, starts and completes maintenance", async () => {
    await cluster();
    const hosts = grpcClient(served, HostService);
    const all = await hosts.queryHosts({});
    expect(all.hostInfos.map((h) => [h.hostname, h.ip, h.state, h.goalState])).toEqual([
      ["node-1.test", "10.0.0.1", HostState.UP, HostState.UP],
      ["node-2.test", "10.0.0.2", HostState.UP, HostState.UP],
      ["node-3.test", "10.0.0.3", HostState.UNKNOWN, HostState.UP],
    ]);
    expect(all.hostInfos[0]?.labels).toEqual([
      expect.objectContaining({ key: "zone", value: "a" }),
    ]);

    expect(await hosts.startMaintenance({ hostname: "node-1.test" })).toMatchObject({
      hostname: "node-1.test",
    });
    const draining = await hosts.queryHosts({ hostStates: [HostState.DRAINING] });
    expect(draining.hostInfos.map((h) => [h.hostname, h.goalState])).toEqual([
      ["node-1.test", HostState.DOWN],
    ]);
    // The deprecated list, one host, as older clients send it.
    await hosts.completeMaintenance({ hostnames: ["node-1.test"] });
    const [after] = (await hosts.queryHosts({ hostStates: [HostState.DRAINING] })).hostInfos;
    expect(after?.goalState).toBe(HostState.UP);
    expect((await hosts.queryHosts({ hostStates: [HostState.INVALID] })).hostInfos).toEqual([]);
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a bad request with the field named and changes nothing", async () => {
    await cluster();
    const hosts = grpcClient(served, HostService);
    const unnamed = await refusal(hosts.startMaintenance({ hostname: "" }));
    expect(unnamed.code).toBe(Code.InvalidArgument);
    expect(unnamed.message).toMatch(/^hostname: /);
    const lost = await refusal(hosts.startMaintenance({ hostname: "node-3.test" }));
    expect(lost.code).toBe(Code.Aborted);
    expect(lost.message).toMatch(/^hostname: .*LOST/);
    const missing = await refusal(hosts.completeMaintenance({ hostname: "nope.test" }));
    expect(missing.code).toBe(Code.NotFound);
    const two = await refusal(
      hosts.startMaintenance({ hostnames: ["node-1.test", "node-2.test"] }),
    );
    expect(two.code).toBe(Code.Unimplemented);
    expect(two.message).toMatch(/^hostnames: /);
    expect(await directSql("SELECT id FROM host_maintenance_events")).toEqual([]);
    expect(
      (await hosts.queryHosts({ hostStates: [HostState.UP] })).hostInfos.map((h) => h.hostname),
    ).toEqual(["node-1.test", "node-2.test"]);

    const pools = await refusal(hosts.listHostPools({}));
    expect(pools.code).toBe(Code.Unimplemented);
    expect(pools.message).toContain("host pools do not exist");
  });
});

/** A stateful job's two volumes, pinned as the placement loop does; instance 0's created. */
async function volumes(): Promise<string> {
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
      hostname: `h${t.instanceId}`,
      agentId: `agent-h${t.instanceId}`,
      sizeMb: 2048,
      containerPath: "/var/lib/ledger",
    })),
  );
  await served.context.gateway.volumes.markCreated([`${id}-0`]);
  return id;
}

describe("VolumeService (v0) over gRPC", () => {
  it("lists a job's volumes and reads one by its id", async () => {
    const id = await volumes();
    const api = grpcClient(served, VolumeService);
    const listed = await api.listVolumes({ jobId: { value: id } });
    expect(
      Object.entries(listed.volumes).map(([key, v]) => [key, v.instanceId, v.hostname, v.state]),
    ).toEqual([
      [`${id}-0`, 0, "h0", VolumeState.CREATED],
      [`${id}-1`, 1, "h1", VolumeState.INITIALIZED],
    ]);
    const one = await api.getVolume({ id: { value: `${id}-1` } });
    expect(one.result).toMatchObject({
      id: { value: `${id}-1` },
      jobId: { value: id },
      sizeMB: 2048,
      containerPath: "/var/lib/ledger",
    });
    expect(one.result?.createTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a bad job id and an unknown volume with the field named; DeleteVolume is UNIMPLEMENTED", async () => {
    const id = await volumes();
    const api = grpcClient(served, VolumeService);
    const bad = await refusal(api.listVolumes({ jobId: { value: "ledger" } }));
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.message).toMatch(/^jobId: /);
    const unknownJob = await refusal(
      api.listVolumes({ jobId: { value: "00000000-0000-4000-8000-000000000000" } }),
    );
    expect(unknownJob.code).toBe(Code.NotFound);
    expect(unknownJob.message).toMatch(/^jobId: /);
    const partial = await refusal(api.getVolume({ id: { value: id } }));
    expect(partial).toEqual({ code: Code.NotFound, message: `id: volume ${id} does not exist` });
    const none = await refusal(api.getVolume({}));
    expect(none.code).toBe(Code.InvalidArgument);
    const deleted = await refusal(api.deleteVolume({ id: { value: `${id}-0` } }));
    expect(deleted.code).toBe(Code.Unimplemented);
    expect(deleted.message).toContain("host manager");
    const [row] = await directSql<{ n: number }>(
      "SELECT count(*)::int AS n FROM volumes WHERE state <> 'DELETED'",
    );
    expect(row?.n).toBe(2);
  });
});
