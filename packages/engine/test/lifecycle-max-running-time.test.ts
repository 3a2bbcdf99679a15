import { describe, expect, it } from "vitest";
import { isPastDeadline, runDeadline } from "../src/lifecycle/max-running-time.ts";

const started = new Date("2026-01-01T00:00:00Z");
const at = (secs: number) => new Date(started.getTime() + secs * 1000);

describe("sla.maxRunningTime (Peloton's deadline tracker)", () => {
  it.each([
    { name: "no limit", secs: 0, now: 10_000, past: false },
    { name: "before the deadline", secs: 60, now: 59, past: false },
    { name: "at the deadline", secs: 60, now: 60, past: true },
    { name: "after the deadline", secs: 60, now: 61, past: true },
  ])("$name → past: $past", ({ secs, now, past }) => {
    expect(isPastDeadline(started, secs, at(now))).toBe(past);
  });

  it("has no deadline for a run that has not started or a job without a limit", () => {
    expect(runDeadline(null, 60)).toBeNull();
    expect(runDeadline(started, 0)).toBeNull();
    expect(runDeadline(started, 90)).toEqual(at(90));
  });
});
