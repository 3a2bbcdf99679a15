/** The update workflow's planner (Peloton's UpdateRun), the instance progress it reads, and rollback sets. */
import { describe, expect, it } from "vitest";
import {
  effectiveBatchSize,
  instanceConfigChanged,
  instanceProgress,
  planUpdateStep,
  rollbackSets,
  type UpdateInstanceFacts,
  type UpdateOptions,
  type UpdatePlanInput,
  updateBatches,
} from "../src/index.ts";
import { service } from "./support/job-builders.ts";

const NOW = new Date("2026-11-28T12:00:00Z");
const LONG_AGO = new Date(NOW.getTime() - 60_000);
const JUST_NOW = new Date(NOW.getTime() - 100);
const WATCH = { now: NOW, watchMs: 1_000 };

const OPTIONS: UpdateOptions = {
  batchSize: 2,
  batchPercentage: 0,
  stopBeforeUpdate: false,
  startPaused: false,
  rollbackOnFailure: false,
  maxInstanceAttempts: 0,
  maxFailureInstances: 0,
  inPlace: false,
  startTasks: false,
};

/** An instance on version `v`, RUNNING for a minute, health check disabled. */
const on = (v: number, over: Partial<UpdateInstanceFacts> = {}): UpdateInstanceFacts => ({
  exists: true,
  configVersion: v,
  desiredConfigVersion: v,
  state: "RUNNING",
  goalState: "RUNNING",
  runId: 2,
  desiredRun: 2,
  health: "DISABLED",
  failureCount: 0,
  startedAt: LONG_AGO,
  ...over,
});
/** Moved to `v` but its new run not yet started. */
const moving = (v: number): UpdateInstanceFacts =>
  on(v - 1, { desiredConfigVersion: v, runId: 1, desiredRun: 2, state: "KILLING" });

function input(over: Partial<UpdatePlanInput>): UpdatePlanInput {
  return {
    state: "ROLLING_FORWARD",
    options: OPTIONS,
    target: 2,
    added: [],
    updated: [0, 1, 2, 3, 4],
    removed: [],
    done: [],
    failed: [],
    current: [],
    facts: new Map(),
    instanceCount: 5,
    watch: WATCH,
    ...over,
  };
}

describe("instanceProgress", () => {
  it.each([
    ["running on the target for a minute", on(2), "run", "DONE"],
    ["running on the target for 100 ms (watched)", on(2, { startedAt: JUST_NOW }), "run", "MOVING"],
    ["on the old version", on(1), "run", "MOVING"],
    ["moved, old run still being killed", moving(2), "run", "MOVING"],
    ["new run pending", on(2, { state: "PENDING" }), "run", "MOVING"],
    ["health check: unknown yet", on(2, { health: "HEALTH_UNKNOWN" }), "run", "MOVING"],
    ["health check: unhealthy", on(2, { health: "UNHEALTHY" }), "run", "MOVING"],
    [
      "health check: healthy (no watch needed)",
      on(2, { health: "HEALTHY", startedAt: JUST_NOW }),
      "run",
      "DONE",
    ],
    ["kept stopped, its run ended", on(2, { state: "KILLED", goalState: "KILLED" }), "run", "DONE"],
    ["failed its attempts", on(2, { state: "FAILED", failureCount: 3 }), "run", "FAILED"],
    ["removed and killed", on(1, { state: "KILLED", goalState: "DELETED" }), "remove", "DONE"],
    ["removed and deleted", on(1, { state: "DELETED", goalState: "DELETED" }), "remove", "DONE"],
    ["removed and still running", on(1, { goalState: "DELETED" }), "remove", "MOVING"],
    ["removed and gone", undefined, "remove", "DONE"],
    ["added, no row yet", undefined, "run", "MOVING"],
  ] as const)("%s → %s", (_name, facts, role, want) => {
    expect(instanceProgress(facts, role, 2, 3, WATCH)).toBe(want);
  });

  it("counts no failure with maxInstanceAttempts 0 (unlimited)", () => {
    expect(instanceProgress(on(2, { state: "FAILED", failureCount: 50 }), "run", 2, 0, WATCH)).toBe(
      "MOVING",
    );
  });
});

describe("planUpdateStep", () => {
  it("starts the first batch and rolls forward", () => {
    const plan = planUpdateStep(input({ state: "INITIALIZED" }));
    expect(plan).toMatchObject({
      state: "ROLLING_FORWARD",
      reason: "STARTED",
      start: { updated: [0, 1] },
      current: [0, 1],
      changed: true,
    });
  });

  it("starts paused with startPaused, moving nothing", () => {
    const plan = planUpdateStep(
      input({ state: "INITIALIZED", options: { ...OPTIONS, startPaused: true } }),
    );
    expect(plan).toMatchObject({ state: "PAUSED", reason: "STARTED_PAUSED", current: [] });
    expect(plan.start.updated).toEqual([]);
  });

  it("holds while paused", () => {
    const plan = planUpdateStep(
      input({ state: "PAUSED", current: [0], facts: new Map([[0, on(2)]]) }),
    );
    expect(plan).toMatchObject({ state: "PAUSED", changed: false, done: [] });
  });

  it("slides the window: one done, the next starts; never more than the batch in flight", () => {
    const plan = planUpdateStep(
      input({
        current: [0, 1],
        facts: new Map([
          [0, on(2)],
          [1, moving(2)],
        ]),
      }),
    );
    expect(plan).toMatchObject({
      reason: "BATCH_STARTED",
      done: [0],
      current: [1, 2],
      start: { updated: [2] },
    });
  });

  it("waits when nothing in flight moved", () => {
    const plan = planUpdateStep(
      input({
        current: [0, 1],
        facts: new Map([
          [0, moving(2)],
          [1, moving(2)],
        ]),
      }),
    );
    expect(plan).toMatchObject({ reason: "WAITING", changed: false, current: [0, 1] });
  });

  it("succeeds when every instance is done", () => {
    const plan = planUpdateStep(
      input({ done: [0, 1, 2, 3], current: [4], facts: new Map([[4, on(2)]]) }),
    );
    expect(plan).toMatchObject({ state: "SUCCEEDED", reason: "ALL_DONE", done: [0, 1, 2, 3, 4] });
  });

  it("ends ROLLED_BACK when a rollback is done", () => {
    const plan = planUpdateStep(
      input({
        state: "ROLLING_BACKWARD",
        target: 1,
        updated: [0],
        current: [0],
        facts: new Map([[0, on(1)]]),
      }),
    );
    expect(plan).toMatchObject({ state: "ROLLED_BACK", done: [0] });
  });

  it.each([
    [
      "fails at maxFailureInstances (Peloton: failed ≥ limit)",
      false,
      "FAILED",
      "TOO_MANY_FAILURES",
    ],
    ["rolls back with rollbackOnFailure", true, "ROLLING_BACKWARD", "ROLLBACK_ON_FAILURE"],
  ] as const)("%s", (_name, rollbackOnFailure, state, reason) => {
    const options = {
      ...OPTIONS,
      maxInstanceAttempts: 1,
      maxFailureInstances: 1,
      rollbackOnFailure,
    };
    const plan = planUpdateStep(
      input({
        options,
        current: [0, 1],
        facts: new Map([
          [0, on(2, { state: "FAILED", failureCount: 1 })],
          [1, moving(2)],
        ]),
      }),
    );
    expect(plan).toMatchObject({ state, reason, failed: [0], current: [1] });
    expect(plan.start.updated).toEqual([]);
  });

  it("goes on past failures with maxFailureInstances 0 (no limit), and succeeds", () => {
    const options = { ...OPTIONS, maxInstanceAttempts: 1 };
    const plan = planUpdateStep(
      input({
        options,
        updated: [0],
        current: [0],
        facts: new Map([[0, on(2, { state: "FAILED", failureCount: 1 })]]),
      }),
    );
    expect(plan).toMatchObject({ state: "SUCCEEDED", failed: [0] });
  });

  it("takes added, then changed, then removed instances", () => {
    const plan = planUpdateStep(
      input({
        state: "INITIALIZED",
        options: { ...OPTIONS, batchSize: 3 },
        added: [5],
        updated: [0],
        removed: [4],
      }),
    );
    expect(plan.start).toEqual({ added: [5], updated: [0], removed: [4] });
  });

  it("a failed rollback does not roll back again", () => {
    const options = {
      ...OPTIONS,
      maxInstanceAttempts: 1,
      maxFailureInstances: 1,
      rollbackOnFailure: true,
    };
    const plan = planUpdateStep(
      input({
        state: "ROLLING_BACKWARD",
        target: 1,
        options,
        current: [0],
        facts: new Map([[0, on(1, { state: "FAILED", failureCount: 1 })]]),
      }),
    );
    expect(plan.state).toBe("FAILED");
  });
});

describe("effectiveBatchSize", () => {
  it.each([
    [{ batchSize: 2 }, 10, 2],
    [{ batchSize: 2, batchPercentage: 25 }, 10, 3],
    [{ batchSize: 0, batchPercentage: 1 }, 10, 1],
    [{ batchSize: 2, stopBeforeUpdate: true }, 10, 10],
  ] as const)("%o of %d instances → %d", (over, n, want) => {
    expect(effectiveBatchSize({ ...OPTIONS, ...over }, n)).toBe(want);
  });
});

describe("rollbackSets", () => {
  it("sends back only what the update touched; added instances go, removed ones come back", () => {
    expect(
      rollbackSets({
        added: [5, 6],
        updated: [0, 1, 2, 3],
        removed: [4],
        done: [5, 0],
        failed: [1],
        current: [4],
      }),
    ).toEqual({ removed: [5, 6], updated: [0, 1], added: [4] });
  });
});

describe("updateBatches", () => {
  it("cuts the order into batches with their state", () => {
    expect(
      updateBatches([0, 1, 2, 3, 4], 2, { done: [0, 1, 2], failed: [], current: [3] }).map(
        (b) => b.state,
      ),
    ).toEqual(["DONE", "CURRENT", "WAITING"]);
  });
});

describe("instanceConfigChanged", () => {
  const base = service(3).build();
  it("is false for the same config, true when the command changes", () => {
    expect(instanceConfigChanged(base, service(3).build(), 0)).toBe(false);
    expect(
      instanceConfigChanged(
        base,
        service(3)
          .task({ command: { value: "exit 1" } })
          .build(),
        0,
      ),
    ).toBe(true);
  });
  it("ignores an SLA change (no restart needed)", () => {
    expect(instanceConfigChanged(base, service(3).sla({ priority: 5 }).build(), 1)).toBe(false);
  });
  it("sees one instance's override only on that instance", () => {
    const one = service(3)
      .instance(2, { command: { value: "sleep 2" } })
      .build();
    expect(instanceConfigChanged(base, one, 1)).toBe(false);
    expect(instanceConfigChanged(base, one, 2)).toBe(true);
  });
});
