/** Task and job states (Peloton's v0 numbers) and the legal task transitions. */
import { describe, expect, it } from "vitest";
import {
  assertTransition,
  canTransition,
  describeTransitionRefusal,
  holdsAllocation,
  isTerminalTaskState,
  JOB_STATE_NUMBERS,
  TASK_STATE_NUMBERS,
  TASK_STATES,
  TASK_TRANSITIONS,
  type TaskState,
} from "../src/index.ts";

describe("state numbers are Peloton's v0 protobuf numbers", () => {
  it("task states", () => {
    expect(TASK_STATE_NUMBERS).toEqual({
      UNKNOWN: 0,
      INITIALIZED: 1,
      PENDING: 2,
      READY: 3,
      PLACING: 4,
      PLACED: 5,
      LAUNCHING: 6,
      LAUNCHED: 15,
      STARTING: 7,
      RUNNING: 8,
      SUCCEEDED: 9,
      FAILED: 10,
      LOST: 11,
      PREEMPTING: 12,
      KILLING: 13,
      KILLED: 14,
      DELETED: 16,
    });
  });
  it("job states", () => {
    expect(JOB_STATE_NUMBERS).toEqual({
      UNKNOWN: 0,
      INITIALIZED: 1,
      PENDING: 2,
      RUNNING: 3,
      SUCCEEDED: 4,
      FAILED: 5,
      KILLED: 6,
      KILLING: 7,
      UNINITIALIZED: 8,
      DELETED: 9,
    });
  });
});

describe("task transitions", () => {
  const legal: [string, TaskState, TaskState][] = [
    ["a new run is queued for admission", "INITIALIZED", "PENDING"],
    ["admitted", "PENDING", "READY"],
    ["taken by placement", "READY", "PLACING"],
    ["preempted before placement goes back to PENDING", "READY", "PENDING"],
    ["no host in time: back to READY", "PLACING", "READY"],
    ["preempted while placing", "PLACING", "PENDING"],
    ["placed", "PLACING", "PLACED"],
    ["launch", "PLACED", "LAUNCHING"],
    ["launch, READY through PLACED kept in the leader's memory", "PENDING", "LAUNCHING"],
    ["launch refused: admitted again", "LAUNCHING", "PENDING"],
    ["sent to Mesos", "LAUNCHING", "LAUNCHED"],
    ["Mesos' RUNNING overtakes our LAUNCHED write", "LAUNCHING", "RUNNING"],
    ["invalid offer", "LAUNCHING", "LOST"],
    ["launch timed out: a new run", "LAUNCHED", "INITIALIZED"],
    ["starting", "LAUNCHED", "STARTING"],
    ["running", "STARTING", "RUNNING"],
    ["finished", "RUNNING", "SUCCEEDED"],
    ["preemption decided", "RUNNING", "PREEMPTING"],
    ["preemption kill lands", "PREEMPTING", "KILLED"],
    ["kill sent", "RUNNING", "KILLING"],
    ["killed", "KILLING", "KILLED"],
    ["restart after failure", "FAILED", "INITIALIZED"],
    ["a preempted batch task's new run", "KILLED", "INITIALIZED"],
    ["a stopped task that was lost is recorded KILLED", "LOST", "KILLED"],
    ["delete after the run ended", "SUCCEEDED", "DELETED"],
    ["stop a task still waiting for admission", "PENDING", "KILLED"],
  ];
  it.each(legal)("legal: %s (%s → %s)", (_name, from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(assertTransition(from, to)).toEqual({ ok: true, from, to });
  });

  const illegal: [string, TaskState, TaskState][] = [
    ["admission is not skipped", "INITIALIZED", "READY"],
    ["nothing runs before it is launched", "PENDING", "RUNNING"],
    ["a running task is not re-queued in place", "RUNNING", "PENDING"],
    ["an ended run does not come back to life", "SUCCEEDED", "RUNNING"],
    ["a running task is not deleted before it ends", "RUNNING", "DELETED"],
    ["deleted is final", "DELETED", "INITIALIZED"],
    ["no task lives in UNKNOWN", "UNKNOWN", "PENDING"],
    ["no self-transitions", "RUNNING", "RUNNING"],
  ];
  it.each(illegal)("illegal: %s (%s → %s)", (_name, from, to) => {
    expect(canTransition(from, to)).toBe(false);
    const result = assertTransition(from, to);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.refusal).toEqual({
        code: "ILLEGAL_TRANSITION",
        from,
        to,
        allowed: TASK_TRANSITIONS[from],
      });
    }
  });

  it("a refusal reads as one sentence with the allowed states", () => {
    const r = assertTransition("SUCCEEDED", "RUNNING");
    expect(r.ok ? "" : describeTransitionRefusal(r.refusal)).toBe(
      "a task cannot go from SUCCEEDED to RUNNING; from SUCCEEDED it may go to INITIALIZED, DELETED",
    );
    const d = assertTransition("DELETED", "PENDING");
    expect(d.ok ? "" : describeTransitionRefusal(d.refusal)).toBe(
      "a task cannot go from DELETED to PENDING; from DELETED it may go to nothing (it is final)",
    );
  });

  it("every state has an entry, and every target is a state", () => {
    expect(Object.keys(TASK_TRANSITIONS).sort()).toEqual([...TASK_STATES].sort());
    for (const targets of Object.values(TASK_TRANSITIONS))
      for (const t of targets) expect(TASK_STATES).toContain(t);
  });

  it("every non-final state can reach an end (KILLED) through legal steps", () => {
    const reachesKilled = (s: TaskState, seen = new Set<TaskState>()): boolean => {
      if (s === "KILLED") return true;
      seen.add(s);
      return TASK_TRANSITIONS[s].some((t) => !seen.has(t) && reachesKilled(t, seen));
    };
    for (const s of TASK_STATES)
      if (s !== "UNKNOWN" && s !== "DELETED" && !isTerminalTaskState(s))
        expect(reachesKilled(s), s).toBe(true);
  });
});

describe("which states hold their pool's allocation", () => {
  const cases: [TaskState, boolean][] = [
    ["PENDING", false],
    ["READY", true],
    ["PLACING", true],
    ["LAUNCHED", true],
    ["RUNNING", true],
    ["KILLING", true],
    ["PREEMPTING", true],
    ["SUCCEEDED", false],
    ["KILLED", false],
    ["INITIALIZED", false],
  ];
  it.each(cases)("%s: %s", (state, holds) => expect(holdsAllocation(state)).toBe(holds));
});
