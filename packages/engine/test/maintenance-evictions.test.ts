/** planEvictions: which tasks leave a host in maintenance now, and which wait on their job's SLA. */
import { describe, expect, it } from "vitest";
import {
  type EvictionCandidate,
  endOfKilledRun,
  HOST_MAINTENANCE_REASON,
  planEvictions,
} from "../src/index.ts";

const task = (id: string, over: Partial<EvictionCandidate> = {}): EvictionCandidate => ({
  taskId: id,
  jobId: "web",
  jobName: "web",
  instanceId: Number(id.replace(/\D/g, "")) || 0,
  state: "RUNNING",
  leaving: false,
  maximumUnavailableInstances: 1,
  unavailableInstances: 0,
  ...over,
});

describe("planEvictions", () => {
  it.each<[string, EvictionCandidate[], string[], number, number]>([
    ["nothing on the host", [], [], 0, 0],
    [
      "SLA 1, nothing down: one RUNNING task goes, the rest wait",
      [task("t1"), task("t2"), task("t3")],
      ["t1"],
      0,
      2,
    ],
    [
      "SLA 1, one instance already down elsewhere: none goes",
      [task("t1", { unavailableInstances: 1 }), task("t2", { unavailableInstances: 1 })],
      [],
      0,
      2,
    ],
    [
      "SLA 2: two go",
      [
        task("t1", { maximumUnavailableInstances: 2 }),
        task("t2", { maximumUnavailableInstances: 2 }),
        task("t3", { maximumUnavailableInstances: 2 }),
      ],
      ["t1", "t2"],
      0,
      1,
    ],
    [
      "SLA 0 means no limit: all go at once",
      [
        task("t1", { maximumUnavailableInstances: 0 }),
        task("t2", { maximumUnavailableInstances: 0 }),
      ],
      ["t1", "t2"],
      0,
      0,
    ],
    [
      "a task not RUNNING makes nothing less available: it goes whatever the SLA",
      [
        task("t1", { state: "LAUNCHED", unavailableInstances: 1 }),
        task("t2", { unavailableInstances: 1 }),
      ],
      ["t1"],
      0,
      1,
    ],
    [
      "tasks already leaving are counted, not asked again",
      [
        task("t1", { leaving: true, unavailableInstances: 1 }),
        task("t2", { unavailableInstances: 1 }),
      ],
      [],
      1,
      1,
    ],
    [
      "each job has its own budget",
      [
        task("a1"),
        task("a2"),
        task("b1", { jobId: "db", jobName: "db" }),
        task("b2", { jobId: "db", jobName: "db" }),
      ],
      ["a1", "b1"],
      0,
      2,
    ],
  ])("%s", (_, candidates, evict, leaving, waiting) => {
    const plan = planEvictions(candidates);
    expect(plan.evict).toEqual(evict);
    expect(plan.leaving).toBe(leaving);
    expect(plan.waits.reduce((n, w) => n + w.waiting, 0)).toBe(waiting);
  });

  it("says which job waits and why, counting what this plan takes", () => {
    const plan = planEvictions([task("t1"), task("t2"), task("t3")]);
    expect(plan.waits).toEqual([
      {
        jobId: "web",
        jobName: "web",
        waiting: 2,
        unavailableInstances: 1,
        maximumUnavailableInstances: 1,
        reason:
          "2 tasks of web wait: 1 of its instances is unavailable and its SLA allows 1 " +
          "(sla.maximumUnavailableInstances); evictions continue as instances come back RUNNING elsewhere",
      },
    ]);
  });
});

describe("an evicted run's end", () => {
  it("keeps HOST_MAINTENANCE and says it is not a failure", () => {
    expect(
      endOfKilledRun(
        "KILLING",
        HOST_MAINTENANCE_REASON,
        "REASON_COMMAND_EXECUTOR_FAILED",
        "maintenance of h1",
      ),
    ).toEqual({
      reason: HOST_MAINTENANCE_REASON,
      message: "evicted for maintenance of h1: replaced by a new run elsewhere (not a failure)",
    });
  });
});
