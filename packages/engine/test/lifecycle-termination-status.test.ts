/** How a run ended, in Peloton's TerminationStatus words (CLI `task list`, the API's RuntimeInfo). */
import { describe, expect, it } from "vitest";
import { terminationStatus } from "../src/lifecycle/termination-status.ts";

describe("termination status", () => {
  const ended = (state: "KILLED" | "FAILED" | "LOST" | "SUCCEEDED", more = {}) =>
    terminationStatus({ state, goalState: "RUNNING", reason: null, ...more });

  it.each([
    ["a stop", ended("KILLED", { goalState: "KILLED" }), "KILLED_ON_REQUEST"],
    ["a deletion", ended("KILLED", { goalState: "DELETED" }), "KILLED_ON_REQUEST"],
    ["its own failure", ended("FAILED"), "FAILED"],
    ["a preemption", ended("KILLED", { reason: "PREEMPTED" }), "PREEMPTED_RESOURCES"],
    [
      "the cluster's QoS controller",
      ended("KILLED", { reason: "REASON_CONTAINER_PREEMPTED" }),
      "PREEMPTED_RESOURCES",
    ],
    [
      "its deadline",
      ended("KILLED", { reason: "DEADLINE_TIMEOUT_EXCEEDED" }),
      "DEADLINE_TIMEOUT_EXCEEDED",
    ],
    ["a restart", ended("KILLED", { reason: "RESTART_REQUESTED" }), "KILLED_FOR_RESTART"],
    ["an update's new config", ended("KILLED", { reason: "JOB_UPDATE" }), "KILLED_FOR_UPDATE"],
    [
      "an eviction for host maintenance",
      ended("KILLED", { reason: "HOST_MAINTENANCE" }),
      "KILLED_HOST_MAINTENANCE",
    ],
    ["a lost agent (Peloton sets none)", ended("LOST"), null],
    ["a batch task that finished", ended("SUCCEEDED"), null],
    [
      "a run that goes on",
      terminationStatus({ state: "RUNNING", goalState: "RUNNING", reason: null }),
      null,
    ],
  ])("after %s: %s", (_what, got, want) => {
    expect(got).toBe(want);
  });
});
