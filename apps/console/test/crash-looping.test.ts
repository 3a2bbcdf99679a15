import { describe, expect, it } from "vitest";
import { isCrashLooping } from "../src/lib/states.ts";

describe("isCrashLooping: a failing service instance is not shown as a quiet wait", () => {
  it.each([
    { state: "INITIALIZED", reason: "CRASH_LOOP_BACKOFF", failing: true },
    { state: "INITIALIZED", reason: null, failing: false },
    { state: "INITIALIZED", reason: "MAXIMUM_RUNNING_INSTANCES", failing: false },
    { state: "PENDING", reason: "CRASH_LOOP_BACKOFF", failing: false },
  ])("$state $reason → $failing", ({ state, reason, failing }) => {
    expect(isCrashLooping({ state, reason })).toBe(failing);
  });
});
