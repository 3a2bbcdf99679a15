/**
 * STARTING coalesced: an agent's TASK_STARTING is acknowledged when queued,
 * so the TASK_RUNNING the cluster sends next joins it in the batch and the
 * two are written as one change of the row (to RUNNING) with both events, in
 * order. A STARTING with nothing after it is still written as STARTING.
 */
import type { TaskChange, TaskRunRow } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import type { WriteOutcome, WriteRequest } from "../src/taskwriter/task-writer.ts";
import { statusUpdate, statusUpdatesOver, taskRunRow } from "./support/status-updates.ts";

const CLUSTER_ID = "job-0-1";

/** An update of the one run these tests follow. */
const update = (
  clusterState: string,
  state: Parameters<typeof statusUpdate>[2],
  reconciliation = false,
) => statusUpdate(CLUSTER_ID, clusterState, state, reconciliation);

/** One LAUNCHING task row in memory; every write call is kept. */
class FakeTaskStore {
  row: TaskRunRow = taskRunRow(CLUSTER_ID, "LAUNCHING");
  readonly writes: TaskChange[][] = [];
  fail = false;

  byClusterIds(ids: readonly string[]): Promise<TaskRunRow[]> {
    return Promise.resolve(ids.includes(CLUSTER_ID) ? [{ ...this.row }] : []);
  }

  write(request: WriteRequest): Promise<WriteOutcome> {
    if (this.fail) return Promise.reject(new Error("connection lost"));
    this.writes.push([...request.changes]);
    for (const c of request.changes) this.row = { ...this.row, state: c.state };
    return Promise.resolve({ applied: [...request.changes], missed: [] });
  }

  idle = () => new Promise((r) => setTimeout(r, 40));
}

function statusUpdates(store: FakeTaskStore, windowMs: number, startingHoldMs = 10) {
  return statusUpdatesOver(store, { windowMs, startingHoldMs });
}

const transitions = (c: TaskChange) => c.events.map((e) => `${e.previousState}→${e.state}`);

describe("STARTING and RUNNING of one run", () => {
  it("are written as one change to RUNNING with both events, STARTING acknowledged first", async () => {
    const store = new FakeTaskStore();
    const updates = statusUpdates(store, 20);
    // Acknowledged before any write: the cluster may send RUNNING now.
    await updates.handle(update("TASK_STARTING", "STARTING"));
    expect(store.writes).toHaveLength(0);
    await updates.handle(update("TASK_RUNNING", "RUNNING"));
    expect(store.writes).toHaveLength(1);
    const [change] = store.writes[0]!;
    expect(change!.expect).toEqual({ state: "LAUNCHING", runId: 1 });
    expect(change!.state).toBe("RUNNING");
    expect(transitions(change!)).toEqual(["LAUNCHING→STARTING", "STARTING→RUNNING"]);
    expect(change!.set?.startedAt).toBeInstanceOf(Date);
  });

  it("holds a STARTING for its RUNNING past the batching window, and no other task's update", async () => {
    const store = new FakeTaskStore();
    const updates = statusUpdates(store, 1, 1_000);
    await updates.handle(update("TASK_STARTING", "STARTING"));
    // Another run's update is written at once, without the held STARTING.
    const other = { ...update("TASK_RUNNING", "RUNNING"), taskId: "other-0-1" };
    await updates.handle(other);
    expect(store.writes).toEqual([[]]);
    await new Promise((r) => setTimeout(r, 30));
    await updates.handle(update("TASK_RUNNING", "RUNNING"));
    expect(store.writes).toHaveLength(2);
    expect(transitions(store.writes[1]![0]!)).toEqual(["LAUNCHING→STARTING", "STARTING→RUNNING"]);
  });

  it("tells who listens that the run reported STARTING, before its write", async () => {
    const store = new FakeTaskStore();
    const heard: string[] = [];
    const updates = statusUpdatesOver(store, {
      onStarting: (id) => heard.push(id),
      startingHoldMs: 1_000,
    });
    await updates.handle(update("TASK_STARTING", "STARTING"));
    expect(heard).toEqual([CLUSTER_ID]);
    expect(store.writes).toHaveLength(0);
    await updates.handle(update("TASK_RUNNING", "RUNNING"));
  });

  it("writes a STARTING with nothing after it as STARTING once its hold ends", async () => {
    const store = new FakeTaskStore();
    const updates = statusUpdates(store, 1);
    await updates.handle(update("TASK_STARTING", "STARTING"));
    await store.idle();
    expect(store.writes).toHaveLength(1);
    expect(store.writes[0]![0]!.state).toBe("STARTING");
    expect(transitions(store.writes[0]![0]!)).toEqual(["LAUNCHING→STARTING"]);
    expect(store.row.state).toBe("STARTING");
  });

  it("keeps a RUNNING unacknowledged until its write commits", async () => {
    const store = new FakeTaskStore();
    store.fail = true;
    const updates = statusUpdates(store, 1);
    // STARTING's failed write is not the cluster's to retry; RUNNING's is.
    await updates.handle(update("TASK_STARTING", "STARTING"));
    await expect(updates.handle(update("TASK_RUNNING", "RUNNING"))).rejects.toThrow(
      "connection lost",
    );
  });

  it("records a reconciliation answer of STARTING before it is acknowledged", async () => {
    const store = new FakeTaskStore();
    const updates = statusUpdates(store, 1);
    await updates.handle(update("TASK_STARTING", "STARTING", true));
    expect(store.writes).toHaveLength(1);
  });
});
