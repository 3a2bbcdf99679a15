import { describe, expect, it } from "vitest";
import {
  describeMaxRunningHold,
  instancesToStart,
  isScheduled,
} from "../src/lifecycle/max-running-instances.ts";

describe("sla.maximumRunningInstances (Peloton's JobEvaluateMaxRunningInstancesSLA)", () => {
  it.each([
    { max: 0, scheduled: 50, room: Number.POSITIVE_INFINITY },
    { max: 3, scheduled: 0, room: 3 },
    { max: 3, scheduled: 2, room: 1 },
    { max: 3, scheduled: 3, room: 0 },
    // More scheduled than the limit (it was lowered): none, never negative.
    { max: 3, scheduled: 5, room: 0 },
  ])("max $max with $scheduled scheduled → $room more", ({ max, scheduled, room }) => {
    expect(instancesToStart(max, scheduled)).toBe(room);
  });

  it.each([
    ["INITIALIZED", false],
    ["PENDING", true],
    ["READY", true],
    ["LAUNCHING", true],
    ["RUNNING", true],
    ["KILLING", true],
    ["SUCCEEDED", false],
    ["FAILED", false],
    ["KILLED", false],
    ["LOST", false],
    ["DELETED", false],
  ] as const)("%s counts as scheduled: %s", (state, scheduled) => {
    expect(isScheduled(state)).toBe(scheduled);
  });

  it("says why an instance waits", () => {
    expect(describeMaxRunningHold(2)).toBe(
      "waiting: the job runs its maximum of 2 instances at once (sla.maximumRunningInstances)",
    );
  });
});
