/**
 * The victim order (peloton-semantics.md §4): revocable and non-revocable
 * lists; READY, PLACING, RUNNING; lowest priority; most recently started;
 * task id. Non-preemptible tasks and tasks holding nothing are never listed.
 */

import {
  inState,
  placing,
  ready,
  running,
} from "@peloton/test-support/engine/preemption-builders.ts";
import { describe, expect, it } from "vitest";
import { rankCandidates } from "../src/index.ts";

const order = (...tasks: { build: () => ReturnType<ReturnType<typeof running>["build"]> }[]) =>
  rankCandidates(tasks.map((t) => t.build()));

describe("victim order", () => {
  it.each([
    {
      name: "by state: READY, then PLACING, then RUNNING, whatever the priority",
      tasks: [running("r").priority(0), placing("p").priority(9), ready("y").priority(9)],
      want: ["y", "p", "r"],
    },
    {
      name: "within a state: lowest priority first",
      tasks: [running("hi").priority(5), running("lo").priority(1), running("mid").priority(3)],
      want: ["lo", "mid", "hi"],
    },
    {
      name: "same priority: most recently started first",
      tasks: [
        running("old").started(100),
        running("new").started(300),
        running("mid").started(200),
      ],
      want: ["new", "mid", "old"],
    },
    {
      name: "never started counts as most recent",
      tasks: [placing("started").started(100), placing("never")],
      want: ["never", "started"],
    },
    {
      name: "all equal: by task id",
      tasks: [ready("b"), ready("c"), ready("a")],
      want: ["a", "b", "c"],
    },
  ])("$name", ({ tasks, want }) => {
    expect(order(...tasks).nonRevocable.map((t) => t.taskId)).toEqual(want);
  });

  it("revocable and non-revocable tasks are ranked apart", () => {
    const r = order(running("n1"), running("r1").revocableTask(), ready("r2").revocableTask());
    expect(r.revocable.map((t) => t.taskId)).toEqual(["r2", "r1"]);
    expect(r.nonRevocable.map((t) => t.taskId)).toEqual(["n1"]);
  });

  it("non-preemptible tasks and tasks in other states are never candidates", () => {
    const r = order(
      running("keep").notPreemptible(),
      inState("pending", "PENDING"),
      inState("launching", "LAUNCHING"),
      inState("done", "SUCCEEDED"),
      running("ok"),
    );
    expect(r.nonRevocable.map((t) => t.taskId)).toEqual(["ok"]);
    expect(r.revocable).toEqual([]);
  });
});
