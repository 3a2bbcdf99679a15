import type { TaskStatus } from "@peloton/mesos";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toStatusUpdate } from "../src/hostmgr/mesos/status-pipeline.ts";
import {
  type EndedRunVerdict,
  UpdateSummary,
  verdictForEndedRun,
} from "../src/jobmgr/ended-runs.ts";

const update = (state: TaskStatus["state"], reason?: TaskStatus["reason"]) =>
  toStatusUpdate(
    {
      task_id: { value: "job-0-1" },
      state,
      agent_id: { value: "agent-1" },
      ...(reason ? { reason } : {}),
    },
    () => undefined,
  );

describe("an update about a run the database has ended or does not know", () => {
  const cases: [string, TaskStatus["state"], TaskStatus["reason"] | undefined, EndedRunVerdict][] =
    [
      ["its end, sent again after a restart", "TASK_FINISHED", undefined, "ACK"],
      ["its end, as a reconciliation answer", "TASK_FINISHED", "REASON_RECONCILIATION", "ACK"],
      ["lost, for a run already finished (Peloton skips it)", "TASK_LOST", undefined, "ACK"],
      [
        "the answer to a kill of a task the master forgot",
        "TASK_UNKNOWN",
        "REASON_TASK_UNKNOWN",
        "ACK",
      ],
      [
        "running, as the master's latest state: an orphan",
        "TASK_RUNNING",
        "REASON_RECONCILIATION",
        "KILL",
      ],
      [
        "staging, as the master's latest state: an orphan",
        "TASK_STAGING",
        "REASON_RECONCILIATION",
        "KILL",
      ],
      ["being killed: its end follows", "TASK_KILLING", undefined, "ACK"],
      [
        "running, an old update sent again: ask the master first",
        "TASK_RUNNING",
        undefined,
        "RECHECK",
      ],
      [
        "starting, an old update sent again: ask the master first",
        "TASK_STARTING",
        undefined,
        "RECHECK",
      ],
    ];
  it.each(cases)("%s: %s → %s", (_name, state, reason, verdict) =>
    expect(verdictForEndedRun(update(state, reason))).toBe(verdict),
  );
});

describe("UpdateSummary", () => {
  afterEach(() => vi.useRealTimers());

  it("says the counts in one line per period, none when nothing happened", () => {
    vi.useFakeTimers();
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const summary = new UpdateSummary(log, 1_000);
    for (let i = 0; i < 2_000; i++) summary.note("alreadyEnded");
    summary.note("rechecked", 3);
    summary.note("orphansKilled", 0);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: "status updates about ended or unknown runs",
      alreadyEnded: 2_000,
      rechecked: 3,
    });
    expect(lines[0]).not.toHaveProperty("orphansKilled");
    vi.advanceTimersByTime(5_000);
    expect(lines).toHaveLength(1);
  });
});
