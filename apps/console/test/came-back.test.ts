import { preemptionRecord } from "@peloton/test-support/storage/preemption-builders.ts";
import { describe, expect, it } from "vitest";
import { cameBackOf } from "../src/components/preemptions/came-back.ts";
import type { PreemptionRow } from "../src/lib/api-types.ts";

const AT = new Date("2026-11-23T10:00:00Z");
const minutes = (m: number) => new Date(AT.getTime() + m * 60_000);

const row = (over: Partial<Pick<PreemptionRow, "rescheduled" | "taskNow">>): PreemptionRow =>
  preemptionRecord({
    at: AT,
    victim: { runId: 3 },
    taskNow: { state: "PREEMPTING", runId: 3 },
    ...over,
  });

describe("whether a victim came back", () => {
  it.each([
    {
      name: "ran again: how long it took",
      p: row({
        rescheduled: { at: minutes(75), runId: 4 },
        taskNow: { state: "RUNNING", runId: 4 },
      }),
      tone: "ok",
      label: "back · 1 h 15 min",
      detail: "It ran again 1 h 15 min later (run 4, now RUNNING).",
    },
    {
      // Not "1 min" nor "under a minute": on-call reads exactly how long it was gone.
      name: "ran again within a minute: the seconds",
      p: row({
        rescheduled: { at: new Date(AT.getTime() + 42_000), runId: 4 },
        taskNow: { state: "RUNNING", runId: 4 },
      }),
      tone: "ok",
      label: "back · 42 s",
      detail: "It ran again 42 s later (run 4, now RUNNING).",
    },
    {
      name: "the kill has not landed",
      p: row({}),
      tone: "warn",
      label: "being killed",
      detail: "The kill was sent; the run is PREEMPTING until the cluster confirms it.",
    },
    {
      name: "killed, and no new run reached RUNNING",
      p: row({ taskNow: { state: "KILLED", runId: 3 } }),
      tone: "bad",
      label: "ended · KILLED",
    },
    {
      name: "a new run waits for admission",
      p: row({ taskNow: { state: "PENDING", runId: 4 } }),
      tone: "warn",
      label: "waiting · PENDING",
    },
    {
      name: "the task was deleted",
      p: row({ taskNow: null }),
      tone: "idle",
      label: "task deleted",
    },
  ])("$name", ({ p, tone, label, detail }) => {
    const c = cameBackOf(p);
    expect([c.tone, c.label]).toEqual([tone, label]);
    if (detail) expect(c.detail).toBe(detail);
  });
});
