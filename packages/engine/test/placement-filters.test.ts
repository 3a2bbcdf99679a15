/**
 * Each placement filter alone: fit or the rejection code (peloton-semantics.md
 * §3). The pipeline's order and counting are in placement-pipeline.test.ts.
 */
import { describe, expect, it } from "vitest";
import { EPSILON, type LabelCounts } from "../src/index.ts";
import { constraintFilter } from "../src/placement/filters/constraint.ts";
import { exclusiveFilter } from "../src/placement/filters/exclusive.ts";
import { gpuFilter } from "../src/placement/filters/gpu.ts";
import { hostStateFilter } from "../src/placement/filters/host-state.ts";
import { portsFilter } from "../src/placement/filters/ports.ts";
import { resourcesFilter } from "../src/placement/filters/resources.ts";
import { stickyVolumeFilter } from "../src/placement/filters/sticky-volume.ts";
import { hostIs, not, tasksLabelled } from "./support/placement-builders.ts";

describe("host state: only UP hosts take tasks", () => {
  it.each([
    { state: "UP", want: null },
    { state: "DRAINING", want: "HOST_DRAINING" },
    { state: "DOWN", want: "HOST_DOWN" },
  ] as const)("$state → $want", ({ state, want }) => expect(hostStateFilter(state)).toBe(want));
});

describe("sticky volume: a stateful instance goes only where its volume is", () => {
  it.each([
    { name: "no volume: any host", volume: undefined, host: "h1", want: null },
    { name: "the volume's host", volume: "h1", host: "h1", want: null },
    { name: "another host", volume: "h1", host: "h2", want: "VOLUME_ON_OTHER_HOST" },
  ] as const)("$name", ({ volume, host, want }) =>
    expect(stickyVolumeFilter(volume, host)).toBe(want),
  );
});

describe("GPU: GPU hosts for GPU tasks only, GPU tasks on GPU hosts only", () => {
  it.each([
    { name: "plain task, plain host", task: 0, host: 0, want: null },
    { name: "GPU task, GPU host", task: 1, host: 4, want: null },
    { name: "plain task on a GPU host", task: 0, host: 4, want: "GPU_HOST_RESERVED" },
    { name: "GPU task on a plain host", task: 1, host: 0, want: "NOT_A_GPU_HOST" },
    {
      name: "GPU task on a GPU host with none free is the resources filter's",
      task: 2,
      host: 1,
      want: null,
    },
    {
      name: "an ask below ε counts as none",
      task: EPSILON / 2,
      host: 4,
      want: "GPU_HOST_RESERVED",
    },
  ] as const)("$name", ({ task, host, want }) => expect(gpuFilter(task, host)).toBe(want));
});

describe("exclusive hosts take only tasks whose constraint names peloton/exclusive", () => {
  it.each([
    { name: "ordinary host, ordinary task", attrs: { zone: "a" }, names: false, want: null },
    {
      name: "exclusive host, ordinary task",
      attrs: { "peloton/exclusive": "ml" },
      names: false,
      want: "EXCLUSIVE_HOST",
    },
    {
      name: "exclusive host, task naming it",
      attrs: { "peloton/exclusive": "ml" },
      names: true,
      want: null,
    },
    { name: "ordinary host, task naming exclusive", attrs: {}, names: true, want: null },
  ])("$name", ({ attrs, names, want }) =>
    expect(exclusiveFilter(attrs as Record<string, string>, names)).toBe(want),
  );
});

describe("constraint: a MISMATCH rejects, MATCH and NOT_APPLICABLE pass", () => {
  const zoneA: LabelCounts = {
    count: (kind, l) => (kind === "HOST" && l.key === "zone" && l.value === "a" ? 1 : 0),
  };
  it.each([
    { name: "no constraint", c: undefined, want: null },
    { name: "zone = a on zone a", c: hostIs("zone", "a"), want: null },
    { name: "zone = b on zone a", c: hostIs("zone", "b"), want: "CONSTRAINT_MISMATCH" },
    { name: "not zone a on zone a", c: not(hostIs("zone", "a")), want: "CONSTRAINT_MISMATCH" },
    {
      name: "no task app=web (none there)",
      c: tasksLabelled("app", "web", "EQUAL", 0),
      want: null,
    },
  ] as const)("$name", ({ c, want }) => expect(constraintFilter(c, zoneA)).toBe(want));
});

describe("resources: every kind fits with ε slack; the first short kind names it", () => {
  // [cpu, gpu, memory, disk]
  it.each([
    { name: "fits with room", ask: [2, 0, 512, 0], free: [4, 0, 1024, 10], want: null },
    { name: "fits exactly", ask: [4, 0, 1024, 10], free: [4, 0, 1024, 10], want: null },
    {
      name: "over by less than ε still fits",
      ask: [4 + EPSILON / 2, 0, 0, 0],
      free: [4, 0, 0, 0],
      want: null,
    },
    {
      name: "over by more than ε does not",
      ask: [4.001, 0, 0, 0],
      free: [4, 0, 0, 0],
      want: "INSUFFICIENT_CPU",
    },
    { name: "gpu short", ask: [1, 2, 0, 0], free: [4, 1, 0, 0], want: "INSUFFICIENT_GPU" },
    {
      name: "memory short",
      ask: [1, 0, 2048, 0],
      free: [4, 0, 1024, 0],
      want: "INSUFFICIENT_MEMORY",
    },
    { name: "disk short", ask: [1, 0, 0, 11], free: [4, 0, 0, 10], want: "INSUFFICIENT_DISK" },
    {
      name: "cpu and memory short: cpu comes first",
      ask: [8, 0, 2048, 0],
      free: [4, 0, 1024, 0],
      want: "INSUFFICIENT_CPU",
    },
  ] as const)("$name", ({ ask, free, want }) => expect(resourcesFilter(ask, free)).toBe(want));

  it("reads a host's slice of the snapshot's flat array", () => {
    const flat = [0, 0, 0, 0, /* host 1: */ 4, 0, 1024, 10];
    expect(resourcesFilter([2, 0, 512, 0], flat, 4)).toBeNull();
    expect(resourcesFilter([2, 0, 512, 0], flat, 0)).toBe("INSUFFICIENT_CPU");
  });
});

describe("ports: static ports free, then enough left for the dynamic count", () => {
  const ranges = [
    { begin: 8000, end: 8001 },
    { begin: 31000, end: 31002 },
  ];
  const free = 5;
  it.each([
    { name: "nothing asked", dynamic: 0, statics: [], want: null },
    { name: "all five dynamic", dynamic: 5, statics: [], want: null },
    { name: "six dynamic", dynamic: 6, statics: [], want: "INSUFFICIENT_PORTS" },
    { name: "a free static port", dynamic: 0, statics: [8001], want: null },
    {
      name: "a static port outside the ranges",
      dynamic: 0,
      statics: [8080],
      want: "STATIC_PORT_TAKEN",
    },
    { name: "two static + three dynamic = five", dynamic: 3, statics: [8000, 31001], want: null },
    {
      name: "two static + four dynamic > five",
      dynamic: 4,
      statics: [8000, 31001],
      want: "INSUFFICIENT_PORTS",
    },
  ] as const)("$name", ({ dynamic, statics, want }) =>
    expect(portsFilter({ dynamic, static: statics }, ranges, free)).toBe(want),
  );
});
