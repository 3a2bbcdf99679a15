/** Losing the master: the heartbeat rule, re-subscription with the same id, redelivery, failover. */
import { describe, expect, it } from "vitest";
import { MesosError, startMesosSim } from "../src/index.ts";
import { next } from "./support/events.ts";
import { client, FAST, frameworkInfo, onCleanup, sim, simTask } from "./support/harness.ts";

describe("reconnection", () => {
  it("detects a silent stream by the heartbeat rule, re-subscribes, reconciles, gets unacked updates again", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log, frameworkId } = await client(s);
    const [offer] = await log.offers();
    await c.launch([offer!.id], [simTask("long-1", offer!.agent_id.value, 60_000)]);
    const starting = await log.update("long-1", "TASK_STARTING");
    // Not acknowledged on purpose.

    const disconnected = next(c, "disconnected", 3000);
    const resubscribed = next(c, "subscribed", 5000);
    const mark = log.events.length;
    s.silenceStreams();
    const gone = (await disconnected) as { reason: string; voidedOffers: unknown[] };
    expect(gone.reason).toMatch(/heartbeat/);
    const again = (await resubscribed) as { frameworkId: string; resubscribed: boolean };
    expect(again).toMatchObject({ frameworkId, resubscribed: true });

    // Implicit reconciliation answered by the master: no uuid.
    const answer = await log.waitFor(
      (e) => e.type === "UPDATE" && e.update.status.reason === "REASON_RECONCILIATION",
      { from: mark, what: "reconciliation answer" },
    );
    expect(answer.type === "UPDATE" && answer.update.status.uuid).toBeUndefined();
    // The unacknowledged update comes again, same uuid.
    const redelivered = await log.waitFor(
      (e) => e.type === "UPDATE" && e.update.status.uuid === starting.uuid,
      { from: mark, what: "redelivered STARTING" },
    );
    expect(redelivered.type === "UPDATE" && redelivered.update.status.state).toBe("TASK_STARTING");
    await c.acknowledge(starting);
    await log.update("long-1", "TASK_RUNNING", { from: mark });
  });

  it("survives a master restart on the same port and re-subscribes with the same framework id", async () => {
    const first = await startMesosSim({ ...FAST, agents: 1 });
    const port = first.port;
    const { client: c, frameworkId } = await client(first, { frameworkInfo: frameworkInfo() });
    const disconnected = next(c, "disconnected", 3000);
    await first.stop();
    await disconnected;
    expect(c.state).toBe("disconnected");
    await expect(c.reconcile()).rejects.toMatchObject({ kind: "not_subscribed" });

    const resubscribed = next(c, "subscribed", 5000);
    const second = await startMesosSim({ ...FAST, agents: 1, port });
    onCleanup(() => second.stop());
    expect(await resubscribed).toMatchObject({ frameworkId, resubscribed: true });
    expect(second.frameworkIds()).toEqual([frameworkId]);
  });

  it("reconnects after a cut connection and forgets its offers", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    const disconnected = next(c, "disconnected", 3000);
    s.dropStreams();
    const info = (await disconnected) as { voidedOffers: Array<{ value: string }> };
    expect(info.voidedOffers.map((o) => o.value)).toEqual([offer!.id.value]);
    await next(c, "subscribed", 5000);
    // The old offer is void: accepting it drops the task.
    await c.launch([offer!.id], [simTask("late-1", offer!.agent_id.value, 10)]);
    const dropped = await log.update("late-1", "TASK_LOST");
    expect(dropped).toMatchObject({ reason: "REASON_INVALID_OFFERS", source: "SOURCE_MASTER" });
  });

  it("a second subscriber with the same id takes over; the first gets ERROR 'Framework failed over'", async () => {
    const s = await sim({ agents: 1 });
    const a = await client(s);
    const failed = next(a.client, "error", 3000);
    const b = await client(s, { frameworkId: a.frameworkId });
    const err = (await failed) as MesosError;
    expect(err).toMatchObject({ kind: "framework_error", masterMessage: "Framework failed over" });
    expect(b.client.state).toBe("subscribed");
  });

  it("after the failover timeout the master kills the tasks and refuses the id", async () => {
    const s = await sim({ agents: 1 });
    const info = frameworkInfo({ failover_timeout: 0.2 });
    const { client: c, log, frameworkId } = await client(s, { frameworkInfo: info });
    const [offer] = await log.offers();
    await c.launch([offer!.id], [simTask("doomed-1", offer!.agent_id.value, 60_000)]);
    await log.update("doomed-1", "TASK_STARTING");
    await c.stop();
    await expect.poll(() => s.frameworkIds(), { timeout: 3000 }).toEqual([]);
    await expect.poll(() => s.agents()[0]?.used.length, { timeout: 3000 }).toBe(0);

    const again = await client(s, { frameworkInfo: info, frameworkId }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(MesosError);
    expect(again).toMatchObject({
      kind: "framework_error",
      masterMessage: "Framework has been removed",
    });
  });

  it("gives up once disconnected for longer than its failover timeout", async () => {
    const s = await startMesosSim({ ...FAST, agents: 1 });
    const { client: c } = await client(s, {
      frameworkInfo: frameworkInfo({ failover_timeout: 0.3 }),
    });
    const failed = next(c, "error", 5000);
    await s.stop();
    expect(await failed).toMatchObject({ kind: "failover_timeout_exceeded" });
    expect(c.state).toBe("failed");
  });
});
