/** The master's operator API (GET_AGENTS, MARK_AGENT_GONE) and the sim's control API. */
import { describe, expect, it } from "vitest";
import { getAgents, MesosError, operatorCall } from "../src/index.ts";
import { client, sim, simTask } from "./support/harness.ts";

const scalar = (resources: { name: string; scalar?: { value: number } }[] = [], name: string) =>
  resources.filter((r) => r.name === name).reduce((n, r) => n + (r.scalar?.value ?? 0), 0);

describe("operator API", () => {
  it("GET_AGENTS lists every agent with its total, allocated and offered resources", async () => {
    const s = await sim({ agents: 2 });
    const agents = await getAgents(s.url);
    expect(agents.map((a) => a.agent_info.hostname).sort()).toEqual(
      s
        .agents()
        .map((a) => a.hostname)
        .sort(),
    );
    const first = agents[0]!;
    expect(first).toMatchObject({
      active: true,
      pid: expect.stringMatching(/^slave\(1\)@127\.0\.0\.1:\d+$/),
    });
    expect(scalar(first.total_resources, "cpus")).toBeGreaterThan(0);
    expect(first.agent_info.attributes?.find((a) => a.name === "zone")).toBeDefined();

    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    await c.launch([offer!.id], [simTask("op-1", offer!.agent_id.value, 60_000)]);
    await log.update("op-1", "TASK_STARTING");
    const after = (await getAgents(s.url)).find(
      (a) => a.agent_info.id?.value === offer!.agent_id.value,
    );
    expect(scalar(after?.allocated_resources, "cpus")).toBeCloseTo(0.1);
  });

  it("MARK_AGENT_GONE removes the agent for good: tasks lost, FAILURE sent", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    await c.launch([offer!.id], [simTask("gone-1", offer!.agent_id.value, 60_000)]);
    await log.update("gone-1", "TASK_STARTING");
    await operatorCall(s.url, {
      type: "MARK_AGENT_GONE",
      mark_agent_gone: { agent_id: offer!.agent_id },
    });
    await log.waitFor((e) => e.type === "FAILURE", { what: "FAILURE" });
    expect(await log.update("gone-1", "TASK_LOST")).toMatchObject({
      reason: "REASON_AGENT_REMOVED_BY_OPERATOR",
    });
    expect(await getAgents(s.url)).toEqual([]);
  });

  it("answers an operator call it does not implement with 400 naming it", async () => {
    const s = await sim({ agents: 1 });
    const err = await operatorCall(s.url, { type: "GET_FLAGS" } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MesosError);
    expect(err).toMatchObject({ status: 400, masterMessage: expect.stringMatching(/GET_FLAGS/) });
  });
});

describe("the sim's control API", () => {
  it("adds an agent from an agent-file entry and removes it again", async () => {
    const s = await sim({ agents: 1 });
    const { log } = await client(s);
    await log.offers();
    const mark = log.events.length;
    const added = await fetch(`${s.url}/sim/agents`, {
      method: "POST",
      body: JSON.stringify({ hostname: "late.sim.local", resources: { cpus: 2, mem: 1024 } }),
    });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: string };
    const offers = await log.offers({ from: mark });
    expect(offers.map((o) => o.hostname)).toContain("late.sim.local");
    expect((await getAgents(s.url)).map((a) => a.agent_info.id?.value)).toContain(id);

    const bad = await fetch(`${s.url}/sim/agents`, {
      method: "POST",
      body: JSON.stringify({ hostname: "x" }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/resources is required/);

    const removed = await fetch(`${s.url}/sim/agents/${encodeURIComponent(id)}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const failure = await log.waitFor((e) => e.type === "FAILURE", { from: mark, what: "FAILURE" });
    expect(failure.type === "FAILURE" && failure.failure.agent_id?.value).toBe(id);
    expect((await getAgents(s.url)).map((a) => a.agent_info.id?.value)).not.toContain(id);
  });
});

describe("agent endpoints", () => {
  it("each agent serves its state at the URL offers carry; a failed agent stops answering", async () => {
    const s = await sim({ agents: 1 });
    const { log } = await client(s);
    const [offer] = await log.offers();
    const { address, path } = offer!.url!;
    expect(path).toBe("/slave(1)");
    expect(address.port).not.toBe(s.port);
    const base = `http://${address.ip}:${address.port}`;
    const res = await fetch(`${base}${path}/state`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: offer!.agent_id.value,
      hostname: offer!.hostname,
      pid: `slave(1)@${address.ip}:${address.port}`,
    });
    s.removeAgent(offer!.agent_id.value);
    await expect(fetch(`${base}/state`)).rejects.toThrow();
  });
});
