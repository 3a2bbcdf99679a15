import type { TaskStatus } from "@peloton/mesos";
import { describe, expect, it } from "vitest";
import { toStatusUpdate } from "../src/hostmgr/mesos/status-pipeline.ts";

const status = (extra: Partial<TaskStatus> = {}): TaskStatus => ({
  task_id: { value: "job-0-1" },
  state: "TASK_FAILED",
  agent_id: { value: "agent-1" },
  timestamp: 1_795_000_000.5,
  ...extra,
});

describe("toStatusUpdate", () => {
  it("puts a Mesos status in the scheduler's terms", () => {
    const u = toStatusUpdate(status({ reason: "REASON_COMMAND_EXECUTOR_FAILED" }), (id) =>
      id === "agent-1" ? "a-1.test" : undefined,
    );
    expect(u).toMatchObject({
      taskId: "job-0-1",
      state: "FAILED",
      clusterState: "TASK_FAILED",
      reason: "REASON_COMMAND_EXECUTOR_FAILED",
      hostId: "agent-1",
      hostname: "a-1.test",
      at: new Date(1_795_000_000_500),
      reconciliation: false,
    });
  });

  it("drops NUL bytes from the executor's message (PostgreSQL text cannot store them)", () => {
    const u = toStatusUpdate(status({ message: "exit\u0000ed 1" }), () => undefined);
    expect(u.message).toBe("exited 1");
  });
});
