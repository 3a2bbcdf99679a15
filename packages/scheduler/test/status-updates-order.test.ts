/**
 * One task's updates are decided and written in the order they arrived, even
 * when they fall into the two batches the job manager keeps in flight: the
 * second batch's read may be quicker than the first's. The fakes below hold
 * the first batch's read until the second batch had its chance to run.
 */
import type { TaskChange, TaskRunRow } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import type { WriteOutcome, WriteRequest } from "../src/taskwriter/task-writer.ts";
import { statusUpdate, statusUpdatesOver, taskRunRow } from "./support/status-updates.ts";

const CLUSTER_ID = "job-0-1";

/** An update of the one run these tests follow. */
const update = (clusterState: string, state: Parameters<typeof statusUpdate>[2]) =>
  statusUpdate(CLUSTER_ID, clusterState, state);

/** One task row in memory; reads can be held, writes are guarded like the real ones. */
class FakeTaskStore {
  row: TaskRunRow = taskRunRow(CLUSTER_ID, "STARTING");
  readonly transitions: string[] = [];
  reads = 0;
  private releaseFirst: (() => void) | undefined;
  /** Resolves once the first read is waiting. */
  readonly firstReadWaiting: Promise<void>;
  private firstReadStarted!: () => void;

  constructor() {
    this.firstReadWaiting = new Promise((r) => {
      this.firstReadStarted = r;
    });
  }

  releaseFirstRead(): void {
    this.releaseFirst?.();
  }

  async byClusterIds(ids: readonly string[]): Promise<TaskRunRow[]> {
    if (++this.reads === 1) {
      await new Promise<void>((r) => {
        this.releaseFirst = r;
        this.firstReadStarted();
      });
    }
    return ids.includes(CLUSTER_ID) ? [{ ...this.row }] : [];
  }

  write(request: WriteRequest): Promise<WriteOutcome> {
    const outcome: WriteOutcome = { applied: [], missed: [] };
    for (const c of request.changes) {
      if (c.expect.state !== this.row.state || c.expect.runId !== this.row.runId) {
        outcome.missed.push(c);
        continue;
      }
      this.apply(c);
      outcome.applied.push(c);
    }
    return Promise.resolve(outcome);
  }

  private apply(c: TaskChange): void {
    this.row = { ...this.row, state: c.state };
    for (const e of c.events) this.transitions.push(`${e.previousState}→${e.state}`);
  }
}

describe("status updates of one task", () => {
  it("are applied in arrival order when the later one lands in a second batch", async () => {
    const store = new FakeTaskStore();
    const updates = statusUpdatesOver(store, { windowMs: 1 });
    const running = updates.handle(update("TASK_RUNNING", "RUNNING"));
    await store.firstReadWaiting;
    // A reconciliation answer of the master does not wait for RUNNING's acknowledgement.
    const finished = updates.handle(update("TASK_FINISHED", "SUCCEEDED"));
    // Long enough for a second batch to read, decide and write if it may.
    await new Promise((r) => setTimeout(r, 30));
    store.releaseFirstRead();
    await Promise.all([running, finished]);
    expect(store.transitions).toEqual(["STARTING→RUNNING", "RUNNING→SUCCEEDED"]);
  });
});
