/**
 * How the launcher hands its LAUNCHING writes to the task writer: chunk by
 * chunk (hosts kept whole, the first ones small), a bounded number of them
 * not yet committed at once, each chunk's launches only after its own write
 * committed, and a failed write thrown to the caller with no chunk after it
 * written.
 */
import type { TaskChange } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/common/logger.ts";
import type { HostAdapter, HostLease } from "../src/hostmgr/host-adapter.ts";
import type { Placed } from "../src/placement/launch-outcomes.ts";
import { Launcher } from "../src/placement/launcher.ts";
import type { TaskWriter, WriteOutcome, WriteRequest } from "../src/taskwriter/task-writer.ts";

/** One host's lease and its `tasks` placed tasks. */
function host(n: number, tasks: number): { lease: HostLease; items: Placed[] } {
  const items = Array.from({ length: tasks }, (_, i) => {
    const taskId = `task-${n}-${i}`;
    return {
      row: { taskId, jobId: "job-1", instanceId: n * 100 + i, runId: 1 },
      launch: { taskId: `job-1-${n * 100 + i}-1` },
      change: { taskId } as TaskChange,
      volume: null,
    } as unknown as Placed;
  });
  return { lease: { leaseId: `lease-${n}`, hostname: `h-${n}` } as HostLease, items };
}

/** A writer whose writes commit (or fail) only when the test says so. */
function heldWriter() {
  const writes: {
    request: WriteRequest;
    commit: () => void;
    fail: (err: Error) => void;
  }[] = [];
  let open = 0;
  let mostOpen = 0;
  const writer = {
    onWritten: () => () => undefined,
    write: (request: WriteRequest) =>
      new Promise<WriteOutcome>((resolve, reject) => {
        open++;
        mostOpen = Math.max(mostOpen, open);
        writes.push({
          request,
          commit: () => {
            open--;
            resolve({ applied: [...request.changes], missed: [] });
          },
          fail: (err) => {
            open--;
            reject(err);
          },
        });
      }),
  };
  return { writer: writer as unknown as TaskWriter, writes, mostOpen: () => mostOpen };
}

/** An adapter that records which leases were launched on and never answers. */
function recordingAdapter() {
  const launched: string[] = [];
  const adapter = {
    launch: (leaseId: string) => {
      launched.push(leaseId);
      return new Promise(() => undefined);
    },
    release: () => undefined,
  };
  return { adapter: adapter as unknown as HostAdapter, launched };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A launcher writing chunks of 4 tasks, sending `hosts` hosts of 4 tasks each. */
function sending(hosts: number) {
  const { writer, writes, mostOpen } = heldWriter();
  const { adapter, launched } = recordingAdapter();
  const launcher = new Launcher({
    writer,
    log: silentLogger(),
    chunkSize: 4,
    now: () => new Date(),
  });
  const byHost = new Map(
    Array.from({ length: hosts }, (_, i) => [`h-${i + 1}`, host(i + 1, 4)] as const),
  );
  return { sent: launcher.send(adapter, byHost), writes, launched, mostOpen };
}

describe("launcher writes", () => {
  it("keeps two chunks' writes in flight, and launches a chunk only once its own write committed", async () => {
    const { sent, writes, launched, mostOpen } = sending(4);
    await tick();
    // Chunks 1 and 2 are handed in before either has committed; 3 waits for 1.
    expect(writes.map((w) => w.request.changes[0]?.taskId)).toEqual(["task-1-0", "task-2-0"]);
    writes[1]!.commit();
    await tick();
    expect(launched).toEqual(["lease-2"]);
    expect(writes).toHaveLength(2);
    writes[0]!.commit();
    await tick();
    // Both committed: chunks 3 and 4 go in together.
    expect(launched).toEqual(["lease-2", "lease-1"]);
    expect(writes).toHaveLength(4);
    writes[2]!.commit();
    await tick();
    writes[3]!.commit();
    await sent;
    expect(launched).toEqual(["lease-2", "lease-1", "lease-3", "lease-4"]);
    expect(mostOpen()).toBe(2);
  });

  it("starts a round with a small write and doubles each next one up to the chunk size, hosts kept whole", async () => {
    const { writer, writes } = heldWriter();
    const { adapter } = recordingAdapter();
    const launcher = new Launcher({
      writer,
      log: silentLogger(),
      chunkSize: 8,
      firstChunkSize: 2,
      now: () => new Date(),
    });
    // A first host of 3 tasks (more than the first write's 2), then 27 hosts of 1.
    const byHost = new Map([
      ["h-1", host(1, 3)],
      ...Array.from({ length: 27 }, (_, i) => [`h-${i + 2}`, host(i + 2, 1)] as const),
    ]);
    let finished = false;
    const sent = launcher.send(adapter, byHost).then(() => {
      finished = true;
    });
    let committed = 0;
    while (!finished) {
      await tick();
      while (committed < writes.length) writes[committed++]!.commit();
    }
    await sent;
    expect(writes.map((w) => w.request.changes.length)).toEqual([3, 4, 8, 8, 7]);
  });

  it("throws a failed write to the caller once the writes in flight finished, and writes no chunk after", async () => {
    const { sent, writes, launched } = sending(5);
    let outcome = "pending";
    const settled = sent.then(
      () => {
        outcome = "resolved";
      },
      (err: Error) => {
        outcome = err.message;
      },
    );
    await tick();
    // The second chunk's write fails while the first's is in flight: nothing is reported unhandled.
    writes[1]!.fail(new Error("connection lost"));
    await tick();
    writes[0]!.commit();
    await tick();
    // The third was handed in before the failure was seen; the launcher waits for it, then throws.
    expect(writes).toHaveLength(3);
    expect(outcome).toBe("pending");
    writes[2]!.commit();
    await settled;
    expect(outcome).toBe("connection lost");
    expect(writes).toHaveLength(3);
    expect(launched).toEqual(["lease-1", "lease-3"]);
  });
});
