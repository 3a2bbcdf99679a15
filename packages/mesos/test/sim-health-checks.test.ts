/**
 * mesos-sim runs a task's HealthCheck as the Mesos command executor does:
 * TASK_RUNNING updates with `healthy` and REASON_TASK_HEALTH_CHECK_STATUS_UPDATED
 * (each with a uuid to acknowledge) on the first result, on recovery, and on
 * every failure; after `consecutive_failures` failures the task is killed and
 * its TASK_KILLED says `healthy: false`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { TaskStatus } from "../src/index.ts";
import { client, onCleanup, shellTask, sim } from "./support/harness.ts";

const healthUpdates = (all: TaskStatus[]) =>
  all.filter((u) => u.reason === "REASON_TASK_HEALTH_CHECK_STATUS_UPDATED");

describe("mesos-sim health checks", () => {
  it("a COMMAND check flips healthy, then unhealthy, and kills after consecutive_failures", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    c.on("update", (st) => {
      c.acknowledge(st).catch(() => {});
    });
    const [offer] = await log.offers();
    await c.launch(
      [offer!.id],
      [
        shellTask("hc-1", offer!.agent_id.value, "touch ok; sleep 30", {
          health_check: {
            type: "COMMAND",
            delay_seconds: 0.2,
            interval_seconds: 0.2,
            timeout_seconds: 2,
            consecutive_failures: 2,
            grace_period_seconds: 0,
            command: { shell: true, value: "test -f ok" },
          },
        }),
      ],
    );
    await log.waitFor((e) => e.type === "UPDATE" && e.update.status.healthy === true, {
      what: "healthy",
      timeoutMs: 5000,
    });
    // The check file goes: two failures in a row, then the kill.
    const { rmSync } = await import("node:fs");
    rmSync(`${s.sandboxPath("hc-1")}/ok`);
    const killed = await log.update("hc-1", "TASK_KILLED", { timeoutMs: 8000 });

    const updates = log.updates("hc-1");
    const health = healthUpdates(updates);
    expect(health.map((u) => [u.state, u.healthy])).toEqual([
      ["TASK_RUNNING", true],
      ["TASK_RUNNING", false],
      ["TASK_RUNNING", false],
    ]);
    for (const u of health) {
      expect(u).toMatchObject({
        task_id: { value: "hc-1" },
        state: "TASK_RUNNING",
        source: "SOURCE_EXECUTOR",
        reason: "REASON_TASK_HEALTH_CHECK_STATUS_UPDATED",
        agent_id: { value: offer!.agent_id.value },
        executor_id: { value: "hc-1" },
      });
      expect(u.uuid).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    }
    // The launch's STARTING and RUNNING, the three results, the end of the kill: nothing else.
    expect(updates.map((u) => u.state)).toEqual([
      "TASK_STARTING",
      "TASK_RUNNING",
      "TASK_RUNNING",
      "TASK_RUNNING",
      "TASK_RUNNING",
      "TASK_KILLED",
    ]);
    expect(new Set(updates.map((u) => u.uuid)).size).toBe(updates.length);
    // As the command executor reports it: killed, unhealthy, no reason of its own.
    expect(killed).toMatchObject({
      state: "TASK_KILLED",
      source: "SOURCE_EXECUTOR",
      healthy: false,
    });
    expect(killed.reason).toBeUndefined();
    expect(killed.message).toMatch(/Command terminated with/);
  });

  it("an HTTP check against the task's port: healthy while it answers 2xx, unhealthy when it stops", async () => {
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? "");
      res.statusCode = 204;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    onCleanup(() => {
      server.closeAllConnections();
      server.close();
    });
    const port = (server.address() as AddressInfo).port;

    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    c.on("update", (st) => {
      c.acknowledge(st).catch(() => {});
    });
    const [offer] = await log.offers();
    await c.launch(
      [offer!.id],
      [
        shellTask("hc-http", offer!.agent_id.value, "sleep 30", {
          health_check: {
            type: "HTTP",
            delay_seconds: 0.1,
            interval_seconds: 0.2,
            timeout_seconds: 1,
            consecutive_failures: 3,
            http: { port, path: "/health" },
          },
        }),
      ],
    );
    await log.waitFor((e) => e.type === "UPDATE" && e.update.status.healthy === true, {
      what: "healthy",
      timeoutMs: 5000,
    });
    expect(paths[0]).toBe("/health");
    // The server stops answering: connections are refused.
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await log.update("hc-http", "TASK_KILLED", { timeoutMs: 8000 });
    const health = healthUpdates(log.updates("hc-http")).map((u) => u.healthy);
    expect(health).toEqual([true, false, false, false]);
  });
});

describe("mesos-sim health checks of simulated runs", () => {
  it("a simulated run (no process) passes its checks: one healthy update", async () => {
    const s = await sim({ agents: 1, simulateTasks: true });
    const { client: c, log } = await client(s);
    c.on("update", (st) => {
      c.acknowledge(st).catch(() => {});
    });
    const [offer] = await log.offers();
    await c.launch(
      [offer!.id],
      [
        shellTask("hc-sim", offer!.agent_id.value, "sleep 30", {
          health_check: {
            type: "COMMAND",
            delay_seconds: 0.05,
            interval_seconds: 0.05,
            command: { shell: true, value: "false" },
          },
        }),
      ],
    );
    await log.waitFor((e) => e.type === "UPDATE" && e.update.status.healthy === true, {
      what: "healthy",
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(healthUpdates(log.updates("hc-sim")).map((u) => u.healthy)).toEqual([true]);
  });
});
