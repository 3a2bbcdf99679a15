/** The checkpoint on disk: journal replay, a torn last line, compaction. */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskRecord } from "../src/sim/checkpoint/records.ts";
import { CheckpointStore } from "../src/sim/checkpoint/store.ts";
import { onCleanup } from "./support/harness.ts";

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), "ckpt-store-"));
  onCleanup(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

const task = (taskId: string): TaskRecord => ({
  frameworkId: "fw",
  taskId,
  agentId: "S0",
  executorId: taskId,
  containerId: "c",
  info: { name: taskId, task_id: { value: taskId }, agent_id: { value: "S0" } },
  resources: [],
  state: "TASK_STAGING",
  sandbox: undefined,
  group: undefined,
  killRequested: false,
  run: undefined,
});

const status = (taskId: string, uuid: string) => ({
  task_id: { value: taskId },
  state: "TASK_RUNNING" as const,
  uuid,
});

describe("checkpoint store", () => {
  it("replays the journal, skipping a torn last line", () => {
    const d = dir();
    const log: string[] = [];
    const store = CheckpointStore.open(d, (l) => log.push(l));
    store.append({ t: "framework", framework: { id: "fw", info: { user: "u", name: "n" } } });
    store.append({ t: "task", task: task("t1") });
    store.append({ t: "task", task: task("t2") });
    store.append({
      t: "task_update",
      frameworkId: "fw",
      taskId: "t1",
      set: {
        state: "TASK_RUNNING",
        run: { kind: "process", metaDir: "/m", pid: 42, startTime: "7" },
      },
    });
    store.append({ t: "update", frameworkId: "fw", status: status("t1", "u1") });
    store.append({ t: "update", frameworkId: "fw", status: status("t1", "u2") });
    store.append({ t: "ack", frameworkId: "fw", taskId: "t1", uuid: "u1" });
    store.append({ t: "task_removed", frameworkId: "fw", taskId: "t2" });
    store.close();
    // A crash in the middle of a write.
    appendFileSync(join(d, "journal-0.jsonl"), '{"t":"task_removed","frameworkId":"fw","ta');

    const again = CheckpointStore.open(d, (l) => log.push(l));
    expect([...again.state.tasks.keys()]).toEqual(["fw/t1"]);
    expect(again.state.tasks.get("fw/t1")).toMatchObject({
      state: "TASK_RUNNING",
      run: { pid: 42, startTime: "7" },
    });
    expect(
      again.state.updates
        .get("fw")
        ?.get("t1")
        ?.map((s) => s.uuid),
    ).toEqual(["u2"]);
    expect(log).toEqual([]);
    again.close();
  });

  it("compacts into a snapshot naming a fresh journal, and replays the same state from it", () => {
    const d = dir();
    const store = CheckpointStore.open(d, () => {});
    store.append({ t: "task", task: task("t1") });
    store.append({ t: "framework_removed", id: "gone" });
    store.compact();
    expect(readdirSync(d).sort()).toEqual(["checkpoint.json", "journal-1.jsonl", "lock"]);
    store.append({ t: "task", task: task("t3") });
    store.close();

    const again = CheckpointStore.open(d, () => {});
    expect([...again.state.tasks.keys()].sort()).toEqual(["fw/t1", "fw/t3"]);
    expect([...again.state.removedFrameworks]).toEqual(["gone"]);
    again.compact();
    expect(existsSync(join(d, "journal-1.jsonl"))).toBe(false);
    again.close();
    const third = CheckpointStore.open(d, () => {});
    expect([...third.state.tasks.keys()].sort()).toEqual(["fw/t1", "fw/t3"]);
    third.close();
  });
});
