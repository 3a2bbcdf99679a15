import type { AccessRequest, PoolFacts } from "@peloton/api/policy";
import { describe, expect, it } from "vitest";
import { type ActionDeps, paletteActions } from "../src/components/palette/palette-actions.ts";
import { matchingPages } from "../src/components/palette/palette-pages.ts";

const POOL: PoolFacts = { path: "/batch", owningTeam: "infra", ldapGroups: [] };
const everything: ActionDeps = { allowed: () => true, poolFacts: () => POOL };
const nothing: ActionDeps = { allowed: () => false, poolFacts: () => POOL };

const job = (over: Partial<{ state: string; goalState: string; jobType: string }> = {}) =>
  ({
    type: "job",
    id: "1a2b3c4d-0000-4000-8000-000000000000",
    name: "etl",
    state: "RUNNING",
    goalState: "RUNNING",
    jobType: "SERVICE",
    version: 3,
    poolPath: "/batch",
    instanceCount: 2,
    ...over,
  }) as Parameters<typeof paletteActions>[0];

const verbs = (deps: ActionDeps, target = job()) =>
  paletteActions(target, deps).map((a) => ("verb" in a ? a.verb : a.kind));

describe("paletteActions: only what the person may do, and what the state allows", () => {
  it("a running job: stop and restart (start applies to a stopped job)", () => {
    expect(verbs(everything)).toEqual(["stop", "restart"]);
  });

  it("a stopped job: start and restart", () => {
    expect(verbs(everything, job({ state: "KILLED", goalState: "KILLED" }))).toEqual([
      "start",
      "restart",
    ]);
  });

  it("nothing the policy refuses, and nothing while the pool's facts are unknown", () => {
    expect(verbs(nothing)).toEqual([]);
    expect(verbs({ allowed: () => true, poolFacts: () => null })).toEqual([]);
  });

  it("asks the policy with the job's pool", () => {
    const asked: AccessRequest[] = [];
    paletteActions(job(), {
      allowed: (r) => {
        asked.push(r);
        return true;
      },
      poolFacts: () => POOL,
    });
    expect(asked).toContainEqual({ kind: "job.act", verb: "stop", pool: POOL });
  });

  it.each([
    { state: "UP", want: ["startMaintenance"] },
    { state: "DRAINING", want: ["completeMaintenance"] },
    { state: "DRAINED", want: ["completeMaintenance"] },
    { state: "DOWN", want: ["completeMaintenance"] },
    { state: "LOST", want: [] },
  ])("a host $state: $want", ({ state, want }) => {
    const host = { type: "host", hostname: "node-1", state } as Parameters<
      typeof paletteActions
    >[0];
    expect(verbs(everything, host)).toEqual(want);
    expect(verbs(nothing, host)).toEqual([]);
  });

  it("a task: open its logs", () => {
    const task = {
      type: "task",
      jobId: "j",
      jobName: "etl",
      instance: 3,
      state: "RUNNING",
      poolPath: "/batch",
    } as Parameters<typeof paletteActions>[0];
    expect(paletteActions(task, nothing)).toEqual([
      expect.objectContaining({ kind: "open", href: "/jobs/j/tasks/3#logs" }),
    ]);
  });
});

describe("matchingPages", () => {
  it.each([
    { text: "", some: "/audit" },
    { text: "host", some: "/hosts" },
    { text: "Audit", some: "/audit" },
    { text: "new", some: "/jobs/new" },
  ])("$text finds $some", ({ text, some }) => {
    expect(matchingPages(text).map((p) => p.href)).toContain(some);
  });
  it("finds nothing for text no page has", () => {
    expect(matchingPages("zzz")).toEqual([]);
  });
});
