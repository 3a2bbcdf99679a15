/** The hosts router against the scratch database, hosts recorded as the host manager records them. */
import type { ClusterHost } from "@peloton/storage";
import { testContext } from "@peloton/test-support/api/context.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";

const ctx = testContext();
const { gateway } = ctx;
const caller = createCaller(ctx);
afterAll(() => ctx.close());
beforeEach(() => resetDatabase());

const host = (i: number, zone: string, extra: Partial<ClusterHost> = {}): ClusterHost => ({
  hostname: `node-${String(i).padStart(2, "0")}.test`,
  agentId: `agent-${i}`,
  agentUrl: `http://127.0.0.1:${5000 + i}/slave(1)`,
  attributes: { zone, rack: `r${i % 3}` },
  cpu: 8 + i,
  memMb: 32768,
  diskMb: 100_000,
  gpu: 0,
  ports: [[31000, 32000]],
  ...extra,
});

async function cluster(n: number): Promise<ClusterHost[]> {
  const hosts = Array.from({ length: n }, (_, i) => host(i, i % 2 ? "b" : "a"));
  await gateway.hosts.recordRegistered(hosts);
  return hosts;
}

describe("hosts.list", () => {
  it("pages through every host once, in order, by keyset", async () => {
    await cluster(7);
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await caller.hosts.list({ limit: 3, cursor });
      seen.push(...page.items.map((h) => h.hostname));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `node-0${i}.test`));
  });

  it("sorts by a resource descending, ties by hostname, across pages", async () => {
    await gateway.hosts.recordRegistered([
      host(1, "a", { cpu: 4 }),
      host(2, "a", { cpu: 16 }),
      host(3, "b", { cpu: 16 }),
      host(4, "b", { cpu: 8 }),
    ]);
    const first = await caller.hosts.list({ sort: "cpu", order: "desc", limit: 2 });
    const second = await caller.hosts.list({
      sort: "cpu",
      order: "desc",
      limit: 2,
      cursor: first.nextCursor,
    });
    expect([...first.items, ...second.items].map((h) => [h.hostname, h.cpu])).toEqual([
      ["node-03.test", 16],
      ["node-02.test", 16],
      ["node-04.test", 8],
      ["node-01.test", 4],
    ]);
    expect(second.nextCursor).toBeNull();
  });

  it("filters by state, attribute and text on the server", async () => {
    const hosts = await cluster(6);
    await gateway.hosts.markAgentsLost([hosts[0]!.agentId], "lost");
    expect((await caller.hosts.list({ states: ["LOST"] })).items.map((h) => h.hostname)).toEqual([
      "node-00.test",
    ]);
    expect(
      (await caller.hosts.list({ attributes: { zone: "b" } })).items.map((h) => h.hostname),
    ).toEqual(["node-01.test", "node-03.test", "node-05.test"]);
    expect((await caller.hosts.list({ text: "DE-04" })).items.map((h) => h.hostname)).toEqual([
      "node-04.test",
    ]);
    expect((await caller.hosts.list({ text: "%" })).items).toEqual([]);
    expect(await caller.hosts.zones()).toEqual([
      { value: "a", hosts: 3 },
      { value: "b", hosts: 3 },
    ]);
  });

  it("rejects a bad sort key with the field named", async () => {
    await expect(caller.hosts.list({ sort: "rank" as never })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^sort: /),
    });
  });
});

describe("hosts.startMaintenance and hosts.completeMaintenance", () => {
  it("start: UP → DRAINING with goal DOWN, history and audit in its transaction; complete sets the goal UP", async () => {
    await cluster(2);
    const started = await caller.hosts.startMaintenance({
      hostname: "node-00.test",
      reason: "kernel upgrade",
    });
    expect(started).toMatchObject({
      state: "DRAINING",
      goalState: "DOWN",
      stateReason: "kernel upgrade",
    });
    // The maintenance loop's steps (scheduler tests run the loop itself).
    const step = (from: "DRAINING" | "DRAINED", to: "DRAINED" | "DOWN") =>
      gateway.transaction((tx) =>
        tx.hostMaintenance.transition("node-00.test", { from, to, goal: "DOWN" }, `${to} now`),
      );
    expect(await step("DRAINING", "DRAINED")).toBe(true);
    expect(await step("DRAINED", "DOWN")).toBe(true);
    // The operator's reason stays the host's while it goes DRAINED and DOWN.
    expect(await caller.hosts.get({ hostname: "node-00.test" })).toMatchObject({
      state: "DOWN",
      stateReason: "kernel upgrade",
    });
    // The reason of the drain is kept in the history when the host becomes DRAINED and DOWN.
    const completed = await caller.hosts.completeMaintenance({ hostname: "node-00.test" });
    expect(completed).toMatchObject({ state: "DOWN", goalState: "UP" });
    const history = await caller.hosts.maintenanceHistory({ hostname: "node-00.test" });
    expect(history.items.map((e) => [e.kind, e.fromState, e.toState, e.actor, e.reason])).toEqual([
      ["COMPLETE", "DOWN", null, "alice", "maintenance completed by alice"],
      ["STATE", "DRAINED", "DOWN", "system", "DOWN now"],
      ["STATE", "DRAINING", "DRAINED", "system", "DRAINED now"],
      ["START", "UP", "DRAINING", "alice", "kernel upgrade"],
    ]);
    const actions = await directSql<{ action: string; actor: string; target_id: string }>(
      "SELECT action, actor, target_id FROM audit_log ORDER BY id",
    );
    expect(actions).toEqual([
      { action: "host.startMaintenance", actor: "alice", target_id: "node-00.test" },
      { action: "host.completeMaintenance", actor: "alice", target_id: "node-00.test" },
    ]);
  });

  it("refuses what the state does not allow, naming it, and changes nothing", async () => {
    const hosts = await cluster(2);
    await expect(
      caller.hosts.completeMaintenance({ hostname: "node-00.test" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message:
        "cannot complete maintenance on host node-00.test: it is not in maintenance (it is UP)",
    });
    await gateway.hosts.markAgentsLost([hosts[1]!.agentId], "lost");
    await expect(caller.hosts.startMaintenance({ hostname: "node-01.test" })).rejects.toMatchObject(
      { code: "CONFLICT", message: expect.stringContaining("it is LOST") },
    );
    await caller.hosts.startMaintenance({ hostname: "node-00.test" });
    await expect(caller.hosts.startMaintenance({ hostname: "node-00.test" })).rejects.toMatchObject(
      { message: expect.stringContaining("already in maintenance") },
    );
    await expect(caller.hosts.startMaintenance({ hostname: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "host nope does not exist",
    });
    expect((await caller.hosts.get({ hostname: "node-01.test" })).state).toBe("LOST");
    const rows = await directSql<{ n: number }>(
      "SELECT count(*)::int AS n FROM host_maintenance_events WHERE hostname <> 'node-00.test'",
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("a host that comes back keeps its maintenance; a lost one comes back UP", async () => {
    const hosts = await cluster(2);
    await caller.hosts.startMaintenance({ hostname: "node-00.test" });
    await gateway.hosts.markAgentsLost([hosts[0]!.agentId, hosts[1]!.agentId], "lost");
    await gateway.hosts.recordRegistered(hosts);
    expect((await caller.hosts.get({ hostname: "node-00.test" })).state).toBe("DRAINING");
    expect(await caller.hosts.get({ hostname: "node-01.test" })).toMatchObject({
      state: "UP",
      stateReason: null,
    });
  });

  it("reads a host's tasks, history and eviction progress; unknown hosts are NOT_FOUND", async () => {
    await cluster(1);
    expect(await caller.hosts.tasks({ hostname: "node-00.test" })).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(await caller.hosts.evictions({ hostname: "node-00.test" })).toMatchObject({
      tasksLeft: 0,
      waits: [],
    });
    for (const read of [
      () => caller.hosts.tasks({ hostname: "ghost.test" }),
      () => caller.hosts.maintenanceHistory({ hostname: "ghost.test" }),
      () => caller.hosts.evictions({ hostname: "ghost.test" }),
    ]) {
      await expect(read()).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "host ghost.test does not exist",
      });
    }
  });
});

describe("system.leader and search", () => {
  it("names the replica that holds the lease, and whether it is live", async () => {
    expect(await caller.system.leader()).toMatchObject({ holder: null, live: false });
    await gateway.cluster.recordLease("scheduler", "box-1:42");
    expect(await caller.system.leader()).toMatchObject({ holder: "box-1:42", live: true });
  });

  it("finds hosts by part of their name", async () => {
    await cluster(3);
    const hits = await caller.search.query({ q: "node-02" });
    expect(hits).toEqual([
      {
        kind: "host",
        label: "node-02.test",
        detail: "host · UP",
        href: "/hosts/node-02.test",
        target: { type: "host", hostname: "node-02.test", state: "UP" },
      },
    ]);
  });
});
