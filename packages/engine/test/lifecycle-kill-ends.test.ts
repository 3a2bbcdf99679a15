import { describe, expect, it } from "vitest";
import { endOfKilledRun } from "../src/lifecycle/kill-ends.ts";

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
