import { describe, expect, it } from "vitest";
import { endOfKilledRun, restartKillOf } from "../src/lifecycle/kill-ends.ts";

describe("endOfKilledRun: a kill we sent on purpose keeps its reason on the run's end", () => {
  it.each([
    {
      name: "a deadline kill",
      state: "KILLING",
      reason: "DEADLINE_TIMEOUT_EXCEEDED",
      end: { reason: "DEADLINE_TIMEOUT_EXCEEDED", message: null },
    },
    {
      name: "a restart's kill names who asked",
      state: "KILLING",
      reason: "RESTART_REQUESTED",
      end: {
        reason: "RESTART_REQUESTED",
        message: "restarted by alice: replaced by a new run (not a failure)",
      },
    },
    {
      name: "an update's kill names the update",
      state: "KILLING",
      reason: "JOB_UPDATE",
      end: {
        reason: "JOB_UPDATE",
        message: "replaced by a run with the new config (alice; not a failure)",
      },
    },
    {
      name: "a stop's kill takes the cluster's reason",
      state: "KILLING",
      reason: "STOP_REQUESTED",
      end: { reason: "REASON_TASK_KILLED", message: null },
    },
    {
      name: "a running run's end takes the cluster's reason",
      state: "RUNNING",
      reason: "RESTART_REQUESTED",
      end: { reason: "REASON_TASK_KILLED", message: null },
    },
  ] as const)("$name", ({ state, reason, end }) => {
    expect(endOfKilledRun(state, reason, "REASON_TASK_KILLED", "alice")).toEqual(end);
  });

  it("reads without a name when nobody is recorded", () => {
    expect(endOfKilledRun("KILLING", "RESTART_REQUESTED", "REASON_TASK_KILLED", null).message).toBe(
      "restarted: replaced by a new run (not a failure)",
    );
  });
});

describe("restartKillOf: a restart's kill keeps why it was asked for", () => {
  it.each([
    [
      null,
      "RESTART_REQUESTED",
      "stopping the current run so a new one can start (restart requested by alice)",
    ],
    [
      "JOB_UPDATE",
      "JOB_UPDATE",
      "stopping the current run so one with the new config can start (alice)",
    ],
    [
      "HOST_MAINTENANCE",
      "HOST_MAINTENANCE",
      "evicted for alice: stopping this run so the next one is placed elsewhere",
    ],
    // A reason no restart keeps reads as an operator's restart.
    [
      "STOP_REQUESTED",
      "RESTART_REQUESTED",
      "stopping the current run so a new one can start (restart requested by alice)",
    ],
  ])("restart reason %s: %s", (restartReason, reason, message) => {
    expect(restartKillOf(restartReason, "alice")).toEqual({ reason, message });
  });
});
