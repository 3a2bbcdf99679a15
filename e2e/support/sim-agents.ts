/**
 * Failing an agent of the suite's mesos-sim and bringing it back, for specs
 * that watch a host go LOST. The specs share one cluster and later ones count
 * its hosts and capacity, so every agent a test failed is back when the test
 * ends, whether it passed or not (the `simAgents` fixture of test.ts).
 */
import { expect } from "@playwright/test";
import { E2E_AGENTS } from "./fixture.ts";

export interface SimAgents {
  /** The agent on `hostname` fails: its tasks are LOST and the host with them. */
  fail(hostname: string): Promise<void>;
  /** The failed agent on `hostname` registers again, under its old id. */
  restore(hostname: string): Promise<void>;
  /** Brings back every agent still failed: the fixture's teardown. */
  restoreAll(): Promise<void>;
}

export function simAgents(simUrl: string): SimAgents {
  /** hostname → the id it had, for each agent failed and not yet back. */
  const failed = new Map<string, string>();
  const restore = async (hostname: string) => {
    const id = failed.get(hostname);
    if (id === undefined) throw new Error(`${hostname} was not failed by this test`);
    const spec = E2E_AGENTS.find((a) => a.hostname === hostname);
    if (spec === undefined) throw new Error(`${hostname} is not one of the suite's agents`);
    const res = await fetch(`${simUrl}/sim/agents`, {
      method: "POST",
      body: JSON.stringify({ ...spec, id }),
    });
    expect(res.status, `${hostname} registered again: ${await res.text()}`).toBe(201);
    failed.delete(hostname);
  };
  return {
    async fail(hostname) {
      const agents = (await (await fetch(`${simUrl}/sim/agents`)).json()) as {
        id: string;
        hostname: string;
      }[];
      const agent = agents.find((a) => a.hostname === hostname);
      expect(agent, `${hostname} in the sim`).toBeDefined();
      const res = await fetch(`${simUrl}/sim/agents/${encodeURIComponent(agent!.id)}`, {
        method: "DELETE",
      });
      expect(res.status, `${hostname} failed: ${await res.text()}`).toBe(204);
      failed.set(hostname, agent!.id);
    },
    restore,
    async restoreAll() {
      for (const hostname of [...failed.keys()]) await restore(hostname);
    },
  };
}
