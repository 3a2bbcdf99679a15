/** Mesos status updates as task states (mesos-api.md; Peloton's MesosStateToPelotonState). */
import { describe, expect, it } from "vitest";
import {
  applyMesosUpdate,
  MESOS_TASK_STATES,
  type MesosTaskState,
  type TaskState,
  taskStateFromMesos,
} from "../src/index.ts";

describe("taskStateFromMesos", () => {
  const table: [MesosTaskState, TaskState][] = [
    ["TASK_STAGING", "LAUNCHED"],
    ["TASK_STARTING", "STARTING"],
    ["TASK_RUNNING", "RUNNING"],
    ["TASK_KILLING", "KILLING"],
    ["TASK_FINISHED", "SUCCEEDED"],
    ["TASK_FAILED", "FAILED"],
    ["TASK_KILLED", "KILLED"],
    ["TASK_ERROR", "FAILED"],
    ["TASK_LOST", "LOST"],
    ["TASK_DROPPED", "LOST"],
    ["TASK_UNREACHABLE", "LOST"],
    ["TASK_GONE", "LOST"],
    ["TASK_GONE_BY_OPERATOR", "LOST"],
    ["TASK_UNKNOWN", "LOST"],
  ];
  it.each(table)("%s → %s", (mesos, state) =>
    expect(taskStateFromMesos({ state: mesos }).state).toBe(state),
  );

  it("covers every Mesos task state", () => {
    expect(table.map(([m]) => m).sort()).toEqual([...MESOS_TASK_STATES].sort());
  });

  it("the reason to store is Mesos' reason, else the Mesos state", () => {
    expect(
      taskStateFromMesos({ state: "TASK_FAILED", reason: "REASON_CONTAINER_LIMITATION_MEMORY" }),
    ).toEqual({ state: "FAILED", reason: "REASON_CONTAINER_LIMITATION_MEMORY" });
    expect(taskStateFromMesos({ state: "TASK_FINISHED" })).toEqual({
      state: "SUCCEEDED",
      reason: "TASK_FINISHED",
    });
  });
});

describe("applyMesosUpdate", () => {
  const cases: {
    name: string;
    current: TaskState;
    update: MesosTaskState;
    reason?: string;
    expected: ReturnType<typeof applyMesosUpdate>;
  }[] = [
    {
      name: "a running task finishes",
      current: "RUNNING",
      update: "TASK_FINISHED",
      expected: { kind: "MOVE", to: "SUCCEEDED", reason: "TASK_FINISHED" },
    },
    {
      name: "a failure keeps Mesos' reason",
      current: "RUNNING",
      update: "TASK_FAILED",
      reason: "REASON_COMMAND_EXECUTOR_FAILED",
      expected: { kind: "MOVE", to: "FAILED", reason: "REASON_COMMAND_EXECUTOR_FAILED" },
    },
    {
      name: "a kill that ends a preemption is stored as PREEMPTED",
      current: "PREEMPTING",
      update: "TASK_KILLED",
      expected: { kind: "MOVE", to: "KILLED", reason: "PREEMPTED" },
    },
    {
      name: "a preempted run that exits non-zero on the kill's signal is preempted too",
      current: "PREEMPTING",
      update: "TASK_FAILED",
      reason: "REASON_COMMAND_EXECUTOR_FAILED",
      expected: { kind: "MOVE", to: "FAILED", reason: "PREEMPTED" },
    },
    {
      name: "an ordinary kill keeps Mesos' words",
      current: "KILLING",
      update: "TASK_KILLED",
      expected: { kind: "MOVE", to: "KILLED", reason: "TASK_KILLED" },
    },
    {
      name: "TASK_KILLING while preempting keeps PREEMPTING",
      current: "PREEMPTING",
      update: "TASK_KILLING",
      expected: { kind: "IGNORE", why: "ALREADY_STOPPING", state: "PREEMPTING" },
    },
    {
      name: "TASK_RUNNING sent before our kill arrived keeps KILLING (the kill stands)",
      current: "KILLING",
      update: "TASK_RUNNING",
      expected: { kind: "IGNORE", why: "ALREADY_STOPPING", state: "KILLING" },
    },
    {
      name: "TASK_STARTING while preempting keeps PREEMPTING",
      current: "PREEMPTING",
      update: "TASK_STARTING",
      expected: { kind: "IGNORE", why: "ALREADY_STOPPING", state: "PREEMPTING" },
    },
    {
      name: "a repeated update (or a reconciliation answer) changes nothing",
      current: "RUNNING",
      update: "TASK_RUNNING",
      reason: "REASON_RECONCILIATION",
      expected: { kind: "IGNORE", why: "SAME_STATE", state: "RUNNING" },
    },
    {
      name: "TASK_STARTING sent again after a restart for a RUNNING run changes nothing",
      current: "RUNNING",
      update: "TASK_STARTING",
      expected: { kind: "IGNORE", why: "EARLIER_STAGE", state: "RUNNING" },
    },
    {
      name: "TASK_STAGING for a run already STARTING changes nothing",
      current: "STARTING",
      update: "TASK_STAGING",
      expected: { kind: "IGNORE", why: "EARLIER_STAGE", state: "STARTING" },
    },
    {
      name: "a LOST after the run ended is skipped (Peloton)",
      current: "SUCCEEDED",
      update: "TASK_LOST",
      expected: { kind: "IGNORE", why: "RUN_ENDED", state: "SUCCEEDED" },
    },
    {
      name: "an invalid offer while launching: lost",
      current: "LAUNCHING",
      update: "TASK_DROPPED",
      reason: "REASON_INVALID_OFFERS",
      expected: { kind: "MOVE", to: "LOST", reason: "REASON_INVALID_OFFERS" },
    },
    {
      name: "an invalid offer for a run its agent reported running is a launch sent again",
      current: "RUNNING",
      update: "TASK_LOST",
      reason: "REASON_INVALID_OFFERS",
      expected: { kind: "IGNORE", why: "REPEATED_LAUNCH", state: "RUNNING" },
    },
    {
      name: "an invalid offer for a run its agent reported starting is a launch sent again",
      current: "STARTING",
      update: "TASK_DROPPED",
      reason: "REASON_INVALID_OFFERS",
      expected: { kind: "IGNORE", why: "REPEATED_LAUNCH", state: "STARTING" },
    },
    {
      name: "an invalid offer for a run only the launcher recorded: lost",
      current: "LAUNCHED",
      update: "TASK_LOST",
      reason: "REASON_INVALID_OFFERS",
      expected: { kind: "MOVE", to: "LOST", reason: "REASON_INVALID_OFFERS" },
    },
    {
      name: "a running run lost with its agent is lost",
      current: "RUNNING",
      update: "TASK_LOST",
      reason: "REASON_AGENT_REMOVED",
      expected: { kind: "MOVE", to: "LOST", reason: "REASON_AGENT_REMOVED" },
    },
    {
      name: "an update for a task never launched is refused",
      current: "PENDING",
      update: "TASK_RUNNING",
      expected: {
        kind: "REFUSE",
        refusal: {
          code: "ILLEGAL_TRANSITION",
          from: "PENDING",
          to: "RUNNING",
          allowed: ["READY", "LAUNCHING", "KILLED"],
        },
      },
    },
  ];
  it.each(cases)("$name", ({ current, update, reason, expected }) =>
    expect(applyMesosUpdate(current, { state: update, reason })).toEqual(expected),
  );
});
