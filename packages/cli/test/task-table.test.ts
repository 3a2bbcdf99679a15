/** Peloton's `task list` row: its run time (how a run ended is the engine's terminationStatus). */
import { describe, expect, it } from "vitest";
import { runTime, TASK_LIST_HEADER, taskListRow } from "../src/tasks/task-table.ts";

const NOW = new Date("2026-11-28T12:00:00Z");
const base = {
  instanceId: 3,
  name: "web",
  state: "RUNNING" as const,
  goalState: "RUNNING" as const,
  health: "HEALTHY" as const,
  startedAt: new Date("2026-11-28T10:58:55Z"),
  finishedAt: null,
  hostname: "agent-1",
  message: null,
  reason: null,
};

describe("task list row", () => {
  it("has Peloton's columns, run time up to now while the run goes on", () => {
    expect(TASK_LIST_HEADER).toEqual([
      "Instance",
      "Name",
      "State",
      "Healthy",
      "Start Time",
      "Run Time",
      "Host",
      "Message",
      "Reason",
      "Termination Status",
    ]);
    // 10:58:55 → 12:00:00 is 1 h 1 min 5 s.
    expect(taskListRow(base, NOW)).toEqual([
      "3",
      "web",
      "RUNNING",
      "HEALTHY",
      "2026-11-28T10:58:55Z",
      "01:01:05",
      "agent-1",
      "",
      "",
      "",
    ]);
  });

  it("measures an ended run to its end and says how it ended", () => {
    const row = taskListRow(
      {
        ...base,
        state: "FAILED",
        health: "UNHEALTHY",
        finishedAt: new Date("2026-11-28T10:59:05Z"),
        reason: "REASON_COMMAND_EXECUTOR_FAILED",
        message: "exit 1",
      },
      NOW,
    );
    expect(row.slice(5)).toEqual([
      "00:00:10",
      "agent-1",
      "exit 1",
      "REASON_COMMAND_EXECUTOR_FAILED",
      "FAILED",
    ]);
  });

  it("leaves start and run time empty before the first start", () => {
    const row = taskListRow({ ...base, state: "PENDING", startedAt: null, hostname: null }, NOW);
    expect(row.slice(4, 7)).toEqual(["", "", ""]);
  });

  it.each([
    [0, "00:00:00"],
    [59_999, "00:00:59"],
    [3_600_000, "01:00:00"],
    // Hours keep counting past a day, as Peloton's %02d does.
    [101 * 3_600_000 + 61_000, "101:01:01"],
    [-5, "00:00:00"],
  ])("run time of %d ms is %s", (ms, text) => {
    expect(runTime(ms)).toBe(text);
  });
});
