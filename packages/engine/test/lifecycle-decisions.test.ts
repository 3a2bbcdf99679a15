/** Goal-state decisions, failure counting and restart backoff. */
import { describe, expect, it } from "vitest";
import {
  describeTaskDecision,
  failureCountAfter,
  failureLimit,
  type GoalState,
  nextTaskAction,
  type RunEndCause,
  restartDelayMs,
  runEndCause,
  type TaskDecision,
  type TaskPolicy,
  type TaskSnapshot,
  type TaskState,
  taskPolicyFor,
} from "../src/index.ts";
import { batch, service } from "./support/job-builders.ts";

const BATCH: TaskPolicy = { kind: "BATCH", maxFailures: 3, killOnPreempt: false };
const SERVICE: TaskPolicy = { kind: "SERVICE", maxFailures: 0, killOnPreempt: false };

const task = (
  state: TaskState,
  goalState: GoalState,
  more: Partial<TaskSnapshot> = {},
): TaskSnapshot => ({ state, goalState, run: 1, failureCount: 0, ...more });

interface Case {
  name: string;
  task: TaskSnapshot;
  policy: TaskPolicy;
  expected: TaskDecision;
  says?: string;
}

const cases: Case[] = [
  // Starting
  {
    name: "a new run is queued for admission",
    task: task("INITIALIZED", "SUCCEEDED"),
    policy: BATCH,
    expected: { action: "ENQUEUE", why: "NOT_YET_STARTED" },
  },
  ...(["PENDING", "READY", "PLACING", "PLACED", "LAUNCHING", "LAUNCHED", "STARTING"] as const).map(
    (state): Case => ({
      name: `${state}: on its way, nothing to do`,
      task: task(state, "RUNNING"),
      policy: SERVICE,
      expected: { action: "NONE", why: "IN_PROGRESS" },
    }),
  ),
  {
    name: "a running service is at its goal",
    task: task("RUNNING", "RUNNING"),
    policy: SERVICE,
    expected: { action: "NONE", why: "AT_GOAL" },
  },
  {
    name: "a running batch task is on its way to SUCCEEDED",
    task: task("RUNNING", "SUCCEEDED"),
    policy: BATCH,
    expected: { action: "NONE", why: "IN_PROGRESS" },
  },
  {
    name: "a finished batch task is at its goal",
    task: task("SUCCEEDED", "SUCCEEDED"),
    policy: BATCH,
    expected: { action: "NONE", why: "AT_GOAL" },
  },
  // Batch restart policy (maxFailures 3)
  {
    name: "batch: the first failure is retried at once",
    task: task("FAILED", "SUCCEEDED", { failureCount: 1 }),
    policy: BATCH,
    expected: {
      action: "START_NEW_RUN",
      why: "RESTART_AFTER_FAILURE",
      run: 2,
      delayMs: 0,
      failureCount: 1,
    },
    says: "retrying as run 2: 1 failures so far, within its restart policy",
  },
  {
    name: "batch: failures 2 < maxFailures 3, retried",
    task: task("FAILED", "SUCCEEDED", { run: 2, failureCount: 2 }),
    policy: BATCH,
    expected: {
      action: "START_NEW_RUN",
      why: "RESTART_AFTER_FAILURE",
      run: 3,
      delayMs: 0,
      failureCount: 2,
    },
  },
  {
    name: "batch: failures 3 = maxFailures 3, it ends FAILED",
    task: task("FAILED", "SUCCEEDED", { run: 3, failureCount: 3 }),
    policy: BATCH,
    expected: { action: "NONE", why: "RESTART_LIMIT_REACHED", failureCount: 3, limit: 3 },
    says: "not retried: 3 failures reached its restart policy's limit of 3",
  },
  {
    name: "batch: maxFailures 0 means no retry",
    task: task("FAILED", "SUCCEEDED", { failureCount: 1 }),
    policy: { ...BATCH, maxFailures: 0 },
    expected: { action: "NONE", why: "RESTART_LIMIT_REACHED", failureCount: 1, limit: 0 },
  },
  {
    name: "batch: a launch failure gets at least 4 attempts (Peloton's MaxSystemFailureAttempts)",
    task: task("FAILED", "SUCCEEDED", {
      failureCount: 1,
      reason: "REASON_CONTAINER_LAUNCH_FAILED",
    }),
    policy: { ...BATCH, maxFailures: 0 },
    expected: {
      action: "START_NEW_RUN",
      why: "RESTART_AFTER_FAILURE",
      run: 2,
      delayMs: 0,
      failureCount: 1,
    },
  },
  {
    name: "batch: a run lost with its agent is replaced whatever the policy, not counted (issue 13)",
    task: task("LOST", "SUCCEEDED", { failureCount: 0, reason: "REASON_AGENT_REMOVED" }),
    policy: { ...BATCH, maxFailures: 0 },
    expected: { action: "START_NEW_RUN", why: "SYSTEM_ENDED", run: 2, delayMs: 0, failureCount: 0 },
    says: "replacing it as run 2: the cluster lost the last run or its host restarted (not counted as a failure)",
  },
  {
    name: "batch: a run whose executor died with a restarted agent is replaced even past the limit",
    task: task("FAILED", "SUCCEEDED", {
      run: 3,
      failureCount: 3,
      reason: "REASON_EXECUTOR_TERMINATED",
    }),
    policy: BATCH,
    expected: { action: "START_NEW_RUN", why: "SYSTEM_ENDED", run: 4, delayMs: 0, failureCount: 3 },
  },
  {
    name: "batch: a preempted run returns as a new run, not counted",
    task: task("KILLED", "SUCCEEDED", { failureCount: 3, reason: "PREEMPTED" }),
    policy: BATCH,
    expected: { action: "START_NEW_RUN", why: "PREEMPTED", run: 2, delayMs: 0, failureCount: 3 },
    says: "starting run 2: the last run was preempted (not counted as a failure)",
  },
  {
    name: "batch: killOnPreempt keeps a preempted task down",
    task: task("KILLED", "SUCCEEDED", { reason: "PREEMPTED" }),
    policy: { ...BATCH, killOnPreempt: true },
    expected: { action: "NONE", why: "KILLED_ON_PREEMPT" },
  },
  // Services: always restart, with backoff from the failure count
  {
    name: "service: a failed run restarts after 2 s (1 failure: 2 s × 2⁰)",
    task: task("FAILED", "RUNNING", { failureCount: 1 }),
    policy: SERVICE,
    expected: {
      action: "START_NEW_RUN",
      why: "SERVICE_ENDED",
      run: 2,
      delayMs: 2_000,
      failureCount: 1,
    },
    says: "restarting as run 2 in 2 s: a service keeps running (1 failures so far)",
  },
  {
    name: "service: four failures wait 16 s (2 s × 2³)",
    task: task("FAILED", "RUNNING", { run: 4, failureCount: 4 }),
    policy: SERVICE,
    expected: {
      action: "START_NEW_RUN",
      why: "SERVICE_ENDED",
      run: 5,
      delayMs: 16_000,
      failureCount: 4,
    },
  },
  {
    name: "service: restarts never stop, whatever the restart policy",
    task: task("FAILED", "RUNNING", { run: 50, failureCount: 50 }),
    policy: { ...SERVICE, maxFailures: 1 },
    expected: {
      action: "START_NEW_RUN",
      why: "SERVICE_ENDED",
      run: 51,
      delayMs: 120_000,
      failureCount: 50,
    },
  },
  {
    name: "service: an exit is restarted too",
    task: task("SUCCEEDED", "RUNNING", { failureCount: 1 }),
    policy: { ...SERVICE, kind: "DAEMON" },
    expected: {
      action: "START_NEW_RUN",
      why: "SERVICE_ENDED",
      run: 2,
      delayMs: 2_000,
      failureCount: 1,
    },
  },
  {
    name: "service: a run lost after a scheduler restart is replaced at once, despite past failures",
    task: task("LOST", "RUNNING", { run: 4, failureCount: 3, reason: "REASON_RECONCILIATION" }),
    policy: SERVICE,
    expected: { action: "START_NEW_RUN", why: "SYSTEM_ENDED", run: 5, delayMs: 0, failureCount: 3 },
  },
  {
    name: "service: a preempted run restarts without delay when nothing failed",
    task: task("KILLED", "RUNNING", { reason: "PREEMPTED" }),
    policy: { ...SERVICE, kind: "STATEFUL" },
    expected: { action: "START_NEW_RUN", why: "PREEMPTED", run: 2, delayMs: 0, failureCount: 0 },
  },
  // Stopping
  {
    name: "stop a running task: kill it",
    task: task("RUNNING", "KILLED"),
    policy: SERVICE,
    expected: { action: "KILL", why: "STOP_REQUESTED" },
  },
  {
    name: "stop a task not yet launched: mark it KILLED, nothing to kill",
    task: task("PLACED", "KILLED"),
    policy: BATCH,
    expected: { action: "MARK_TERMINAL", state: "KILLED", why: "NEVER_LAUNCHED" },
  },
  {
    name: "stop a task being launched: kill it (the launch may land)",
    task: task("LAUNCHING", "KILLED"),
    policy: BATCH,
    expected: { action: "KILL", why: "STOP_REQUESTED" },
  },
  {
    name: "a kill already sent: wait",
    task: task("KILLING", "KILLED"),
    policy: BATCH,
    expected: { action: "NONE", why: "STOPPING" },
  },
  {
    name: "a preemption under way: wait",
    task: task("PREEMPTING", "RUNNING"),
    policy: SERVICE,
    expected: { action: "NONE", why: "STOPPING" },
  },
  {
    name: "a stopped task that was lost is recorded KILLED (Peloton)",
    task: task("LOST", "KILLED"),
    policy: SERVICE,
    expected: { action: "MARK_TERMINAL", state: "KILLED", why: "LOST_WHILE_STOPPING" },
  },
  {
    name: "stopped: nothing more",
    task: task("KILLED", "KILLED"),
    policy: SERVICE,
    expected: { action: "NONE", why: "STOPPED" },
  },
  {
    name: "delete: once the run has ended, mark DELETED",
    task: task("FAILED", "DELETED"),
    policy: BATCH,
    expected: { action: "MARK_TERMINAL", state: "DELETED", why: "DELETE_REQUESTED" },
  },
  {
    name: "delete a running task: kill it first",
    task: task("RUNNING", "DELETED"),
    policy: BATCH,
    expected: { action: "KILL", why: "STOP_REQUESTED" },
  },
  {
    name: "deleted is the end",
    task: task("DELETED", "DELETED"),
    policy: BATCH,
    expected: { action: "NONE", why: "AT_GOAL" },
  },
  // Restart requested (desired run ahead of the current one)
  {
    name: "restart a running task: kill the current run",
    task: task("RUNNING", "RUNNING", { desiredRun: 2 }),
    policy: SERVICE,
    expected: { action: "KILL", why: "RESTART_REQUESTED" },
  },
  {
    name: "restart once the run ended: start the desired run at once",
    task: task("KILLED", "RUNNING", { desiredRun: 2, failureCount: 5 }),
    policy: SERVICE,
    expected: {
      action: "START_NEW_RUN",
      why: "RESTART_REQUESTED",
      run: 2,
      delayMs: 0,
      failureCount: 5,
    },
  },
  {
    name: "restart a task still queued: drop the run",
    task: task("PENDING", "RUNNING", { desiredRun: 2 }),
    policy: SERVICE,
    expected: { action: "MARK_TERMINAL", state: "KILLED", why: "NEVER_LAUNCHED" },
  },
  {
    name: "an unknown state waits for reconciliation",
    task: task("UNKNOWN", "RUNNING"),
    policy: SERVICE,
    expected: { action: "NONE", why: "NO_SUCH_STATE" },
  },
];

describe("nextTaskAction", () => {
  it.each(cases)("$name", ({ task, policy, expected, says }) => {
    const decision = nextTaskAction(task, policy);
    expect(decision).toEqual(expected);
    if (says) expect(describeTaskDecision(decision)).toBe(says);
  });

  it("every decision has words", () => {
    for (const c of cases)
      expect(describeTaskDecision(nextTaskAction(c.task, c.policy))).not.toBe("");
  });

  it("the backoff is an option", () => {
    const d = nextTaskAction(task("FAILED", "RUNNING", { failureCount: 3 }), SERVICE, {
      initialMs: 30_000,
      maxMs: 3_600_000,
    });
    // Peloton's defaults: 30 s × 2² = 120 s.
    expect(d).toMatchObject({ action: "START_NEW_RUN", delayMs: 120_000 });
  });

  it("taskPolicyFor reads the kind, the merged restart policy and killOnPreempt", () => {
    const job = batch(2)
      .task({ restartPolicy: { maxFailures: 2 } })
      .instance(1, { restartPolicy: { maxFailures: 5 }, preemptionPolicy: { killOnPreempt: true } })
      .build();
    expect(taskPolicyFor(job, 0)).toEqual({ kind: "BATCH", maxFailures: 2, killOnPreempt: false });
    expect(taskPolicyFor(job, 1)).toEqual({ kind: "BATCH", maxFailures: 5, killOnPreempt: true });
    expect(
      taskPolicyFor(
        service()
          .task({ volume: { containerPath: "/d", sizeMB: 1 } })
          .build(),
        0,
      ).kind,
    ).toBe("STATEFUL");
  });
});

describe("what counts as a failure (runEndCause × failureCountAfter)", () => {
  // "what happened | from→ended | goal | stored reason", by cause; only TASK_FAILURE counts (2 → 3).
  const table: Record<RunEndCause, string[]> = {
    // The task's own doing (Peloton's updateFailureCount)
    TASK_FAILURE: [
      "a command that exits non-zero | RUNNING→FAILED | SUCCEEDED | REASON_COMMAND_EXECUTOR_FAILED",
      "a task over its memory limit | RUNNING→FAILED | RUNNING | REASON_CONTAINER_LIMITATION_MEMORY",
      "a command that cannot be launched | STARTING→FAILED | SUCCEEDED | REASON_CONTAINER_LAUNCH_FAILED",
      "a task the cluster refused as invalid | LAUNCHED→FAILED | RUNNING | REASON_TASK_INVALID",
      "a service that exits | RUNNING→SUCCEEDED | RUNNING | TASK_FINISHED",
      "a kill nobody asked for (health check) | RUNNING→KILLED | RUNNING | REASON_TASK_HEALTH_CHECK_STATUS_UPDATED",
    ],
    // The system's doing: never counted (issue 13)
    SYSTEM: [
      "lost with its agent | RUNNING→LOST | RUNNING | REASON_AGENT_REMOVED",
      "a batch task lost with its agent | RUNNING→LOST | SUCCEEDED | REASON_AGENT_REMOVED",
      "unknown to the master after a restart (reconciliation) | RUNNING→LOST | RUNNING | REASON_RECONCILIATION",
      "gone by operator (maintenance: machine down) | RUNNING→LOST | RUNNING | REASON_AGENT_REMOVED_BY_OPERATOR",
      "a LOST with no reason at all | STARTING→LOST | RUNNING | TASK_LOST",
      "its executor died with the agent | RUNNING→FAILED | RUNNING | REASON_EXECUTOR_TERMINATED",
      "its agent restarted | RUNNING→FAILED | SUCCEEDED | REASON_AGENT_RESTARTED",
      "its executor did not come back | RUNNING→LOST | RUNNING | REASON_EXECUTOR_REREGISTRATION_TIMEOUT",
      "an offer that was no longer valid | LAUNCHING→LOST | RUNNING | REASON_INVALID_OFFERS",
      "killed by the master as the framework went away | RUNNING→KILLED | RUNNING | REASON_FRAMEWORK_REMOVED",
    ],
    // Preemptions: ours and the cluster's
    PREEMPTION: [
      "our preemption's kill | PREEMPTING→KILLED | RUNNING | PREEMPTED",
      "a preempted run that exits non-zero on SIGTERM | PREEMPTING→FAILED | SUCCEEDED | REASON_COMMAND_EXECUTOR_FAILED",
      "revocable resources taken back by the cluster | RUNNING→KILLED | RUNNING | REASON_CONTAINER_PREEMPTED",
    ],
    // Kills we asked for (stop, restart, delete, a daemon leaving a drained host)
    REQUESTED: [
      "a stop's kill | KILLING→KILLED | KILLED | TASK_KILLED",
      "a restart's kill (the goal stays RUNNING) | KILLING→KILLED | RUNNING | TASK_KILLED",
      "a kill re-sent for a task the master forgot | KILLING→LOST | KILLED | REASON_TASK_UNKNOWN",
      "a stopped run that fails in its grace period | KILLING→FAILED | DELETED | REASON_COMMAND_EXECUTOR_FAILED",
      "a stop that reached the run before KILLING was written | RUNNING→KILLED | KILLED | TASK_KILLED",
    ],
    DONE: ["a batch task that succeeds | RUNNING→SUCCEEDED | SUCCEEDED | TASK_FINISHED"],
    NOT_ENDED: ["a run that starts running | STARTING→RUNNING | RUNNING | TASK_RUNNING"],
  };
  const cases = Object.entries(table).flatMap(([cause, rows]) =>
    rows.map((row) => {
      const [name, move, goal, reason] = row.split(" | ") as [string, string, GoalState, string];
      const [from, ended] = move.split("→") as [TaskState, TaskState];
      return { name, cause: cause as RunEndCause, end: { from, ended, goalState: goal, reason } };
    }),
  );
  it.each(cases)("$cause: $name", ({ cause, end }) => {
    expect(runEndCause(end)).toBe(cause);
    expect(failureCountAfter(2, end)).toBe(cause === "TASK_FAILURE" ? 3 : 2);
  });
});

describe("failureLimit and restartDelayMs", () => {
  it("maxFailures above 100 is 100 (Peloton's _maxTaskRetries)", () =>
    expect(failureLimit(500)).toBe(100));
  it("system failures get at least 4", () =>
    expect(failureLimit(1, "REASON_CONTAINER_LAUNCH_FAILED")).toBe(4));
  it("a larger policy wins over the system floor", () =>
    expect(failureLimit(10, "REASON_INVALID_OFFERS")).toBe(10));
  it("a task the master no longer knows is no fault of the task", () =>
    expect(failureLimit(0, "REASON_RECONCILIATION")).toBe(4));
  it("the task's own failure gets only its policy", () =>
    expect(failureLimit(0, "REASON_CONTAINER_LIMITATION_MEMORY")).toBe(0));
  const delays: [number, number][] = [
    [0, 0], // no failure, no delay
    [1, 2_000], // 2 s × 2⁰
    [2, 4_000], // 2 s × 2¹
    [6, 64_000], // 2 s × 2⁵
    [7, 120_000], // 128 s capped at 120 s
    [2000, 120_000], // 2^1999 overflows to Infinity, still capped
  ];
  it.each(delays)("%i failures: %i ms", (failures, ms) =>
    expect(restartDelayMs(failures)).toBe(ms),
  );
});
