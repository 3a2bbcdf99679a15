import { describe, expect, it } from "vitest";
import { describeCrashLoop } from "../src/lifecycle/crash-loop.ts";

describe("describeCrashLoop", () => {
  const retryAt = new Date("2026-01-01T00:00:08Z");
  it.each([
    {
      name: "with the cluster's reason and message (the exit code)",
      reason: "REASON_COMMAND_EXECUTOR_FAILED",
      message: "Command exited with status 3",
      failures: 3,
      delayMs: 8_000,
      says: "failing: run 4 FAILED (REASON_COMMAND_EXECUTOR_FAILED: Command exited with status 3); 3 failures so far; run 5 starts after a 8 s backoff, at 2026-01-01T00:00:08.000Z",
    },
    {
      name: "with neither",
      reason: null,
      message: null,
      failures: 1,
      delayMs: 2_500,
      says: "failing: run 4 FAILED; 1 failure so far; run 5 starts after a 2.5 s backoff, at 2026-01-01T00:00:08.000Z",
    },
  ])("$name", ({ reason, message, failures, delayMs, says }) => {
    expect(
      describeCrashLoop({
        run: 4,
        ended: "FAILED",
        reason,
        message,
        failureCount: failures,
        retryAt,
        delayMs,
      }),
    ).toBe(says);
  });
});
