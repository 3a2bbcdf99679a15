/** deriveJobState per job type (Peloton's jobStateDeterminer for batch; services keep RUNNING). */
import { describe, expect, it } from "vitest";
import {
  deriveJobState,
  type GoalState,
  type JobState,
  type JobType,
  type TaskStateCounts,
} from "../src/index.ts";

interface Case {
  name: string;
  type: JobType;
  goal: GoalState;
  counts: TaskStateCounts;
  instances: number;
  controller?: "SUCCEEDED" | "FAILED" | "KILLED" | "LOST";
  expected: JobState;
}

const cases: Case[] = [
  // Batch (Peloton's jobStateDeterminer)
  {
    name: "batch: nothing running yet",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { PENDING: 3 },
    instances: 3,
    expected: "PENDING",
  },
  {
    name: "batch: any task running",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { RUNNING: 1, PENDING: 2 },
    instances: 3,
    expected: "RUNNING",
  },
  {
    name: "batch: all succeeded",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { SUCCEEDED: 3 },
    instances: 3,
    expected: "SUCCEEDED",
  },
  {
    name: "batch: all ended, one failed beyond its policy",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { SUCCEEDED: 2, FAILED: 1 },
    instances: 3,
    expected: "FAILED",
  },
  {
    name: "batch: a lost task counts as failed",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { SUCCEEDED: 2, LOST: 1 },
    instances: 3,
    expected: "FAILED",
  },
  {
    name: "batch: one failed, others still running",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { FAILED: 1, RUNNING: 2 },
    instances: 3,
    expected: "RUNNING",
  },
  {
    name: "batch: stopping",
    type: "BATCH",
    goal: "KILLED",
    counts: { KILLED: 1, RUNNING: 2 },
    instances: 3,
    expected: "KILLING",
  },
  {
    name: "batch: stopped",
    type: "BATCH",
    goal: "KILLED",
    counts: { KILLED: 2, SUCCEEDED: 1 },
    instances: 3,
    expected: "KILLED",
  },
  {
    name: "batch: stopped after everything had succeeded",
    type: "BATCH",
    goal: "KILLED",
    counts: { SUCCEEDED: 3 },
    instances: 3,
    expected: "SUCCEEDED",
  },
  {
    name: "batch: a controller job ends as its controller did",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { SUCCEEDED: 2, FAILED: 1 },
    instances: 3,
    controller: "SUCCEEDED",
    expected: "SUCCEEDED",
  },
  {
    name: "batch: a failed controller fails the job",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { SUCCEEDED: 3 },
    instances: 3,
    controller: "LOST",
    expected: "FAILED",
  },
  {
    name: "batch: the controller does not end a job that has not ended",
    type: "BATCH",
    goal: "SUCCEEDED",
    counts: { SUCCEEDED: 1, RUNNING: 2 },
    instances: 3,
    controller: "SUCCEEDED",
    expected: "RUNNING",
  },
  {
    name: "batch: deleted once every task is",
    type: "BATCH",
    goal: "DELETED",
    counts: { DELETED: 3 },
    instances: 3,
    expected: "DELETED",
  },
  // Services keep RUNNING
  {
    name: "service: running",
    type: "SERVICE",
    goal: "RUNNING",
    counts: { RUNNING: 2, FAILED: 1 },
    instances: 3,
    expected: "RUNNING",
  },
  {
    name: "service: all failed and restarting is not FAILED",
    type: "SERVICE",
    goal: "RUNNING",
    counts: { FAILED: 3 },
    instances: 3,
    expected: "PENDING",
  },
  {
    name: "service: all exited is not SUCCEEDED",
    type: "STATEFUL",
    goal: "RUNNING",
    counts: { SUCCEEDED: 3 },
    instances: 3,
    expected: "PENDING",
  },
  {
    name: "service: scaled to zero",
    type: "SERVICE",
    goal: "RUNNING",
    counts: {},
    instances: 0,
    expected: "RUNNING",
  },
  {
    name: "service: stopping",
    type: "SERVICE",
    goal: "KILLED",
    counts: { KILLING: 1, KILLED: 2 },
    instances: 3,
    expected: "KILLING",
  },
  {
    name: "service: stopped",
    type: "SERVICE",
    goal: "KILLED",
    counts: { KILLED: 2, FAILED: 1 },
    instances: 3,
    expected: "KILLED",
  },
  {
    name: "daemon: running on its hosts",
    type: "DAEMON",
    goal: "RUNNING",
    counts: { RUNNING: 5 },
    instances: 5,
    expected: "RUNNING",
  },
  {
    name: "daemon: being deleted",
    type: "DAEMON",
    goal: "DELETED",
    counts: { DELETED: 3, KILLED: 2 },
    instances: 5,
    expected: "KILLED",
  },
];

describe("deriveJobState", () => {
  it.each(cases)("$name", ({ type, goal, counts, instances, controller, expected }) =>
    expect(deriveJobState(type, goal, counts, instances, { controllerState: controller })).toBe(
      expected,
    ),
  );
});
