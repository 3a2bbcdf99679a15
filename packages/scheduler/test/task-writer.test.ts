import type { StorageGateway, TaskChange, TaskChangesOutcome } from "@peloton/storage";
import { ManualClock } from "@peloton/test-support/storage/manual-clock.ts";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/common/logger.ts";
import { TaskWriter } from "../src/taskwriter/task-writer.ts";

/** A gateway whose transactions stay open until the test lets each one commit. */
function heldGateway() {
  const open: { tasks: string[]; commit: () => void }[] = [];
  const tx = {
    taskChanges: {
      apply: async (changes: readonly TaskChange[]): Promise<TaskChangesOutcome> => {
        await new Promise<void>((commit) =>
          open.push({ tasks: changes.map((c) => c.taskId), commit }),
        );
        return { applied: [...changes], missed: [], countDeltas: [] };
      },
    },
    jobs: { addTaskCounts: async () => [], writeStates: async () => {} },
    changes: { announce: async () => {} },
  };
  const gateway = {
    transaction: <T>(fn: (t: typeof tx) => Promise<T>) => fn(tx),
  } as unknown as StorageGateway;
  return { gateway, open };
}

const change = (taskId: string): TaskChange => ({
  taskId,
  jobId: "job",
  instanceId: 0,
  expect: { state: "LAUNCHED", runId: 1 },
  state: "RUNNING",
  reason: null,
  message: null,
  events: [],
});

describe("TaskWriter", () => {
  it("writes the calls that arrive within its window together, and later ones after", async () => {
    const { gateway, open } = heldGateway();
    const clock = new ManualClock();
    const writer = new TaskWriter(gateway, silentLogger(), { windowMs: 5, clock });
    void writer.write({ changes: [change("a")] });
    await clock.advance(4);
    void writer.write({ changes: [change("b")] });
    expect(open).toEqual([]);
    await clock.advance(1); // the window counts from the first call
    expect(open.map((t) => t.tasks)).toEqual([["a", "b"]]);
    void writer.write({ changes: [change("c")] });
    await clock.advance(4);
    expect(open).toHaveLength(1);
    await clock.advance(1);
    expect(open.map((t) => t.tasks)).toEqual([["a", "b"], ["c"]]);
    for (const t of open) t.commit();
    await writer.idle();
  });

  it("writes calls on disjoint tasks in two transactions at once, never three", async () => {
    const { gateway, open } = heldGateway();
    const clock = new ManualClock();
    const settle = () => clock.advance(1);
    const writer = new TaskWriter(gateway, silentLogger(), { windowMs: 1, clock });
    void writer.write({ changes: [change("a")] });
    await settle();
    void writer.write({ changes: [change("b")] });
    await settle();
    void writer.write({ changes: [change("c")] });
    await settle();
    expect(open.map((t) => t.tasks)).toEqual([["a"], ["b"]]);
    open[0]!.commit();
    await settle();
    expect(open.map((t) => t.tasks)).toEqual([["a"], ["b"], ["c"]]);
    for (const t of open.slice(1)) t.commit();
    await writer.idle();
  });

  it("keeps a task's changes in order: later calls on a task in flight wait with it", async () => {
    const { gateway, open } = heldGateway();
    const clock = new ManualClock();
    const settle = () => clock.advance(1);
    const writer = new TaskWriter(gateway, silentLogger(), { windowMs: 1, clock });
    const order: string[] = [];
    const write = (name: string, tasks: string[]) =>
      writer.write({ changes: tasks.map(change) }).then(() => order.push(name));
    void write("first", ["a"]);
    await settle();
    // "second" waits for a; "third" waits behind "second" (it holds b); "other" goes.
    void write("second", ["a", "b"]);
    void write("third", ["b"]);
    void write("other", ["z"]);
    await settle();
    expect(open.map((t) => t.tasks)).toEqual([["a"], ["z"]]);
    open[1]!.commit();
    open[0]!.commit();
    await settle();
    expect(open[2]!.tasks).toEqual(["a", "b"]);
    open[2]!.commit();
    await settle();
    expect(open[3]!.tasks).toEqual(["b"]);
    open[3]!.commit();
    await writer.idle();
    expect(order).toEqual(["other", "first", "second", "third"]);
  });

  it("runs a call without declared changes alone, and holds later calls behind it", async () => {
    const { gateway, open } = heldGateway();
    const clock = new ManualClock();
    const settle = () => clock.advance(1);
    const writer = new TaskWriter(gateway, silentLogger(), { windowMs: 1, clock });
    const alongside: string[] = [];
    void writer.write({ changes: [change("a")] });
    await settle();
    void writer.write({
      changes: [],
      alongside: async () => {
        alongside.push("preemptor");
      },
    });
    void writer.write({ changes: [change("b")] });
    await settle();
    expect(open.map((t) => t.tasks)).toEqual([["a"]]);
    open[0]!.commit();
    await settle();
    // The exclusive call and the one behind it share the next transaction.
    expect(open.map((t) => t.tasks)).toEqual([["a"], ["b"]]);
    open[1]!.commit();
    await writer.idle();
    expect(alongside).toEqual(["preemptor"]);
  });
});
