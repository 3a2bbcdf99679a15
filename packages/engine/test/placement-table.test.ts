/**
 * The filter table and what is derived from it (pipeline order, rejection
 * codes, cache keys), the scorer weights per strategy, and the resolvable
 * flag of an unplaced task: which reasons no change of allocation resolves.
 */
import { describe, expect, it } from "vitest";
import {
  CAN_NEVER_PLACE,
  type Constraint,
  describeUnplaced,
  isResolvableWaitingReason,
  type PlacementTask,
  REJECTION_CODES,
  type RejectionCode,
  SCORER_NAMES,
  STRATEGY_WEIGHTS,
  unplacedRowReason,
} from "../src/index.ts";
import { TaskClass } from "../src/placement/feasibility.ts";
import {
  DYNAMIC_FILTERS,
  FAILURE_KEY_FIELDS,
  FILTERS,
  keyOf,
  STATIC_FILTERS,
  STATIC_KEY_FIELDS,
  TASK_FIELDS,
  type TaskField,
} from "../src/placement/filters/pipeline.ts";
import { weightedScore } from "../src/placement/scorers/strategy.ts";
import { host, hostIs, task, tasksLabelled } from "./support/placement-builders.ts";
import { place } from "./support/placement-run.ts";

describe("the filter table yields the pipeline", () => {
  it("order: the rows in table order, every static row before the dynamic ones", () => {
    expect(FILTERS.map((f) => `${f.kind} ${f.name}`)).toEqual([
      "static volume",
      "static host state",
      "static gpu",
      "static exclusive",
      "static host constraint",
      "dynamic task constraint",
      "dynamic resources",
      "dynamic ports",
    ]);
    expect([...STATIC_FILTERS, ...DYNAMIC_FILTERS]).toEqual([...FILTERS]);
  });

  it("codes: each row's codes in pipeline order, each once", () => {
    expect(REJECTION_CODES).toEqual([
      "VOLUME_ON_OTHER_HOST",
      "HOST_DRAINING",
      "HOST_DOWN",
      "GPU_HOST_RESERVED",
      "NOT_A_GPU_HOST",
      "EXCLUSIVE_HOST",
      "CONSTRAINT_MISMATCH",
      "INSUFFICIENT_CPU",
      "INSUFFICIENT_GPU",
      "INSUFFICIENT_MEMORY",
      "INSUFFICIENT_DISK",
      "STATIC_PORT_TAKEN",
      "INSUFFICIENT_PORTS",
    ]);
    // The type is the union of the rows' codes: a code no row answers does not compile.
    const known: RejectionCode = "HOST_DOWN";
    // @ts-expect-error not a code of any row
    const unknown: RejectionCode = "HOST_ON_FIRE";
    expect([known, unknown]).toHaveLength(2);
  });

  it("cache keys: the static one from exactly what the static rows read, the failure one from all", () => {
    expect(STATIC_KEY_FIELDS).toEqual(["volumeHost", "asksGpu", "constraint"]);
    expect(FAILURE_KEY_FIELDS).toEqual([
      "volumeHost",
      "asksGpu",
      "constraint",
      "resources",
      "ports",
    ]);
    expect(new Set(STATIC_KEY_FIELDS)).toEqual(new Set(STATIC_FILTERS.flatMap((f) => f.reads)));
    expect(Object.keys(TASK_FIELDS).sort()).toEqual([...FAILURE_KEY_FIELDS].sort());
  });
});

/** A task class as the feasibility check builds it. */
function classOf(t: PlacementTask): TaskClass {
  const text = t.constraint ? JSON.stringify(t.constraint) : "";
  return new TaskClass(t.resources, t.ports, t.constraint, t.volumeHost, text);
}

const zoneA: Constraint = hostIs("zone", "a");
const base = task("t").cpu(2).ports(1, 8080).constraint(zoneA);

describe("a static key changes with exactly the fields the static filters read", () => {
  const key = (t: PlacementTask, fields: readonly TaskField[]) => keyOf(fields, classOf(t));
  it.each([
    { name: "more cpu", change: task("t").cpu(3).ports(1, 8080).constraint(zoneA), moves: false },
    { name: "other ports", change: task("t").cpu(2).ports(2).constraint(zoneA), moves: false },
    {
      name: "a GPU asked",
      change: task("t").cpu(2).gpus(1).ports(1, 8080).constraint(zoneA),
      moves: true,
    },
    {
      name: "another constraint",
      change: task("t").cpu(2).ports(1, 8080).constraint(hostIs("zone", "b")),
      moves: true,
    },
    {
      name: "a volume host",
      change: task("t").cpu(2).ports(1, 8080).constraint(zoneA).volumeOn("h1"),
      moves: true,
    },
  ])("$name → static key moves: $moves; failure key always", ({ change, moves }) => {
    const a = base.build();
    const b = change.build();
    expect(key(a, STATIC_KEY_FIELDS) !== key(b, STATIC_KEY_FIELDS)).toBe(moves);
    expect(key(a, FAILURE_KEY_FIELDS)).not.toBe(key(b, FAILURE_KEY_FIELDS));
  });

  it("how many GPUs is the resources filter's question: 1 and 2 share the static key", () => {
    const one = task("t").gpus(1).build();
    const two = task("t").gpus(2).build();
    expect(keyOf(STATIC_KEY_FIELDS, classOf(one))).toBe(keyOf(STATIC_KEY_FIELDS, classOf(two)));
  });
});

describe("scorer weights: a map per strategy", () => {
  it("every strategy weighs every scorer", () => {
    for (const w of Object.values(STRATEGY_WEIGHTS)) {
      expect(Object.keys(w).sort()).toEqual([...SCORER_NAMES].sort());
    }
  });
  it.each([
    { w: STRATEGY_WEIGHTS.PACK_HOST, scores: { pack: 60, spread: 10, sticky: 100 }, want: 80 },
    { w: STRATEGY_WEIGHTS.SPREAD_JOB, scores: { pack: 60, spread: 10, sticky: 100 }, want: 55 },
    {
      w: { pack: 0, spread: 0, sticky: 0 },
      scores: { pack: 60, spread: 10, sticky: 100 },
      want: 0,
    },
  ])("weightedScore($w) = $want", ({ w, scores, want }) =>
    expect(weightedScore(w, scores)).toBe(want),
  );
});

describe("resolvable: whether a change of allocation could place the task", () => {
  it.each([
    {
      name: "no host has a GPU",
      hosts: [host("h1"), host("h2")],
      task: task("t").gpus(1),
      resolvable: false,
      says: "this will never fit on these hosts: 2 hosts have no GPU",
    },
    {
      name: "the GPU host's GPUs are in use",
      hosts: [host("h1"), host("h2").gpus(2).free({ gpu: 0 })],
      task: task("t").gpus(1),
      resolvable: true,
      says: "no host fits: 1 host has no GPU, 1 host lacks 1 gpu",
    },
    {
      name: "no host has the attribute the constraint needs",
      hosts: [host("h1").zone("a"), host("h2")],
      task: task("t").constraint(hostIs("zone", "c")),
      resolvable: false,
      says: "this will never fit on these hosts: 2 hosts mismatch constraint zone = c",
    },
    {
      name: "the task is bigger than every host",
      hosts: [host("h1").cpu(4), host("h2").cpu(8)],
      task: task("t").cpu(16),
      resolvable: false,
      says: "this will never fit on these hosts: 2 hosts lack 16 cpu",
    },
    {
      name: "bigger than what is free, not than the host",
      hosts: [host("h1").cpu(4), host("h2").cpu(8).free({ cpu: 2 })],
      task: task("t").cpu(6),
      resolvable: true,
      says: "no host fits: 2 hosts lack 6 cpu",
    },
    {
      name: "short of free cpu, and too small in memory: never (the code is still the first short kind)",
      hosts: [host("h1").res({ memory: 64 }).free({ cpu: 0 })],
      task: task("t"),
      resolvable: false,
      says: "this will never fit on these hosts: 1 host lacks 1 cpu",
    },
    {
      name: "anti-affinity with tasks already there: they may end",
      hosts: [host("h1").taskLabel("app", "web"), host("h2").taskLabel("app", "web")],
      task: task("t").constraint(tasksLabelled("app", "web", "EQUAL", 0)),
      resolvable: true,
      says: "no host fits: 2 hosts mismatch constraint no task labelled app=web on the host",
    },
    {
      name: "one host never, one host full: resolvable",
      hosts: [host("h1").state("DRAINING"), host("h2").free({ cpu: 0 })],
      task: task("t"),
      resolvable: true,
      says: "no host fits: 1 host is draining, 1 host lacks 1 cpu",
    },
    {
      name: "every host draining or down",
      hosts: [host("h1").state("DRAINING"), host("h2").state("DOWN")],
      task: task("t"),
      resolvable: false,
      says: "this will never fit on these hosts: 1 host is draining, 1 host is down",
    },
    {
      name: "the volume's host is gone",
      hosts: [host("h1"), host("h2")],
      task: task("t").volumeOn("gone"),
      resolvable: false,
      says: "this will never fit on these hosts: 2 hosts do not hold its volume (on gone)",
    },
    {
      name: "the volume's host is full",
      hosts: [host("h1"), host("h2").free({ cpu: 0 })],
      task: task("t").volumeOn("h2"),
      resolvable: true,
      says: "no host fits: 1 host does not hold its volume (on h2), 1 host lacks 1 cpu",
    },
    {
      name: "ports taken: they are freed when tasks end",
      hosts: [host("h1").ports()],
      task: task("t").ports(1),
      resolvable: true,
      says: "no host fits: 1 host lacks 1 free port",
    },
    {
      name: "no hosts at all",
      hosts: [],
      task: task("t"),
      resolvable: false,
      says: "no hosts to place on",
    },
  ])("$name", ({ hosts, task: t, resolvable, says }) => {
    const u = place(hosts, [t]).unplacedOf("t");
    expect(u.resolvable).toBe(resolvable);
    expect(describeUnplaced(u)).toBe(says);
    expect(unplacedRowReason(u)).toBe(resolvable ? u.reason : CAN_NEVER_PLACE);
  });

  it("a remembered failure keeps the flag, brought up to date as hosts change", () => {
    //   h1  GPU host, 1 GPU free;  h2  no GPU
    //   g1 takes h1's GPU; g2 and g3 (same asks) find it taken: resolvable, from memory
    const gpuTask = (id: string) => task(id).gpus(1);
    const r = place(
      [host("h1").gpus(1), host("h2")],
      [gpuTask("g1"), gpuTask("g2"), gpuTask("g3")],
    );
    expect(r.hostOf("g1")).toBe("h1");
    expect(r.unplacedOf("g2").resolvable).toBe(true);
    expect(r.unplacedOf("g3")).toMatchObject({
      resolvable: true,
      rejections: { NOT_A_GPU_HOST: 1, INSUFFICIENT_GPU: 1 },
    });
  });

  it("a gang with a member that never fits never starts: every member says so", () => {
    //   h1  cpu 8 — a (2 cpu) fits, b (16 cpu) is above every host
    const r = place([host("h1")], [task("a").cpu(2).gang("g"), task("b").cpu(16).gang("g")]);
    expect(r.unplaced.map((u) => [u.taskId, u.reason, u.resolvable])).toEqual([
      ["a", "GANG_INCOMPLETE", false],
      ["b", "GANG_INCOMPLETE", false],
    ]);
    expect(describeUnplaced(r.unplacedOf("a"))).toBe(
      "its gang g starts only whole and 1 of 2 tasks fit, and it will never start whole on these hosts; this task would fit",
    );
    expect(describeUnplaced(r.unplacedOf("b"))).toBe(
      "its gang g starts only whole and 1 of 2 tasks fit, and it will never start whole on these hosts; this task: no host fits: 1 host lacks 16 cpu",
    );
    expect(unplacedRowReason(r.unplacedOf("a"))).toBe(CAN_NEVER_PLACE);
  });
});

describe("waiting reasons on a row", () => {
  it.each([
    { reason: "NO_HOST_FITS", resolvable: true },
    { reason: "GANG_INCOMPLETE", resolvable: true },
    { reason: "POOL_OVER_ENTITLEMENT", resolvable: true },
    { reason: null, resolvable: true },
    { reason: CAN_NEVER_PLACE, resolvable: false },
    { reason: "CAN_NEVER_FIT", resolvable: false },
  ])("$reason → resolvable $resolvable", ({ reason, resolvable }) =>
    expect(isResolvableWaitingReason(reason)).toBe(resolvable),
  );
});
