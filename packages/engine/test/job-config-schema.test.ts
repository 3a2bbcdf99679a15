/** The job config's shape: Peloton's fields, enums by number or name, constraints normalised. */
import { describe, expect, it } from "vitest";
import { type Constraint, type JobConfig, jobConfigSchema } from "../src/index.ts";

const base = {
  name: "j",
  instanceCount: 1,
  defaultConfig: { command: { value: "true" }, resource: { cpuLimit: 1 } },
};
const parse = (more: Record<string, unknown>) => jobConfigSchema.safeParse({ ...base, ...more });
const ok = (more: Record<string, unknown>): JobConfig => {
  const r = parse(more);
  if (!r.success) throw new Error(r.error.issues.map((i) => i.message).join("; "));
  return r.data;
};
const withConstraint = (constraint: unknown): Constraint | undefined =>
  ok({ defaultConfig: { ...base.defaultConfig, constraint } }).defaultConfig.constraint;
const hostLabel = (value: string) => ({
  type: 1,
  labelConstraint: { kind: 2, condition: 2, requirement: 1, label: { key: "zone", value } },
});
const HOST_ZONE = (value: string): Constraint => ({
  type: "LABEL_CONSTRAINT",
  kind: "HOST",
  condition: "EQUAL",
  requirement: 1,
  label: { key: "zone", value },
});

describe("job config schema: accepted forms", () => {
  const cases: { name: string; input: Record<string, unknown>; check: (c: JobConfig) => void }[] = [
    {
      name: "defaults: BATCH, empty SLA with zeros, no overrides",
      input: {},
      check: (c) => {
        expect(c.type).toBe("BATCH");
        expect(c.sla).toEqual({
          priority: 0,
          preemptible: false,
          revocable: false,
          maximumRunningInstances: 0,
          minimumRunningInstances: 0,
          maxRunningTime: 0,
          maximumUnavailableInstances: 0,
        });
        expect(c.instanceConfig).toEqual({});
        expect(c.labels).toEqual([]);
      },
    },
    {
      name: "type by number: 1 is SERVICE",
      input: { type: 1 },
      check: (c) => expect(c.type).toBe("SERVICE"),
    },
    {
      name: "type by name, any case",
      input: { type: "daemon" },
      check: (c) => expect(c.type).toBe("DAEMON"),
    },
    {
      name: "type 3 is our STATEFUL",
      input: { type: 3 },
      check: (c) => expect(c.type).toBe("STATEFUL"),
    },
    { name: "type 0 is BATCH", input: { type: 0 }, check: (c) => expect(c.type).toBe("BATCH") },
    {
      name: "placementStrategy by number and by Peloton's prefixed name",
      input: { placementStrategy: "PLACEMENT_STRATEGY_SPREAD_JOB" },
      check: (c) => expect(c.placementStrategy).toBe("SPREAD_JOB"),
    },
    {
      name: "placementStrategy 1 is PACK_HOST",
      input: { placementStrategy: 1 },
      check: (c) => expect(c.placementStrategy).toBe("PACK_HOST"),
    },
    {
      name: "labels in Peloton's first form ({labels: [...]}) read as the list",
      input: { labels: { labels: [{ key: "team", value: "ml" }] } },
      check: (c) => expect(c.labels).toEqual([{ key: "team", value: "ml" }]),
    },
    {
      name: "respoolId as {value} and as a bare path",
      input: { respoolId: "/infra/batch" },
      check: (c) => expect(c.respoolId).toEqual({ value: "/infra/batch" }),
    },
    {
      name: "the early SLA fields of Peloton's examples are accepted and dropped",
      input: { sla: { priority: 22, minimumInstanceCount: 12, minimumInstancePercent: 50 } },
      check: (c) => {
        expect(c.sla.priority).toBe(22);
        expect(c.sla).not.toHaveProperty("minimumInstanceCount");
      },
    },
    {
      name: "instanceConfig keys are instance numbers",
      input: {
        instanceCount: 13,
        instanceConfig: { "0": { name: "first" }, "12": { name: "twelfth" } },
      },
      check: (c) => expect(Object.keys(c.instanceConfig)).toEqual(["0", "12"]),
    },
    {
      name: "an override keeps only what it gives (no defaults filled in)",
      input: { instanceConfig: { "0": { name: "first" } } },
      check: (c) => expect(c.instanceConfig["0"]).toEqual({ name: "first" }),
    },
    {
      name: "a resource left out of a given resource block is 0",
      input: { defaultConfig: { resource: { memLimitMb: 10 }, command: { value: "x" } } },
      check: (c) =>
        expect(c.defaultConfig.resource).toEqual({
          cpuLimit: 0,
          memLimitMb: 10,
          diskLimitMb: 0,
          fdLimit: 0,
          gpuLimit: 0,
        }),
    },
    {
      name: "command.shell defaults to true (Mesos' CommandInfo)",
      input: {},
      check: (c) => expect(c.defaultConfig.command?.shell).toBe(true),
    },
    {
      name: "preemptionPolicy.type by Peloton's name TYPE_NON_PREEMPTIBLE",
      input: {
        defaultConfig: {
          ...base.defaultConfig,
          preemptionPolicy: { type: "TYPE_NON_PREEMPTIBLE" },
        },
      },
      check: (c) => expect(c.defaultConfig.preemptionPolicy?.type).toBe("NON_PREEMPTIBLE"),
    },
    {
      name: "container volume modes by number: 1 RW, 2 RO",
      input: {
        defaultConfig: {
          ...base.defaultConfig,
          container: {
            type: 1,
            docker: { image: "debian" },
            volumes: [
              { containerPath: "/a", hostPath: "/tmp", mode: 1 },
              { containerPath: "/b", hostPath: "/var", mode: 2 },
            ],
          },
        },
      },
      check: (c) =>
        expect(c.defaultConfig.container?.volumes?.map((v) => v.mode)).toEqual(["RW", "RO"]),
    },
  ];
  it.each(cases)("$name", ({ input, check }) => check(ok(input)));
});

describe("job config schema: constraints become the normalised Constraint", () => {
  const cases: { name: string; input: unknown; expected: Constraint }[] = [
    {
      name: "a HOST label constraint written with numbers (Peloton's example files)",
      input: hostLabel("a"),
      expected: HOST_ZONE("a"),
    },
    {
      name: "names, including Peloton's CONDITION_ prefix; requirement defaults to 0",
      input: {
        type: "LABEL_CONSTRAINT",
        labelConstraint: {
          kind: "TASK",
          condition: "CONDITION_EQUAL",
          label: { key: "app", value: "web" },
        },
      },
      expected: {
        type: "LABEL_CONSTRAINT",
        kind: "TASK",
        condition: "EQUAL",
        requirement: 0,
        label: { key: "app", value: "web" },
      },
    },
    {
      name: "AND and OR nest",
      input: {
        type: 2,
        andConstraint: {
          constraints: [
            hostLabel("a"),
            { type: 3, orConstraint: { constraints: [hostLabel("b"), hostLabel("c")] } },
          ],
        },
      },
      expected: {
        type: "AND_CONSTRAINT",
        constraints: [
          HOST_ZONE("a"),
          { type: "OR_CONSTRAINT", constraints: [HOST_ZONE("b"), HOST_ZONE("c")] },
        ],
      },
    },
    {
      name: "NOT (ours, type 4) wraps one constraint",
      input: { type: 4, notConstraint: { constraint: hostLabel("a") } },
      expected: { type: "NOT_CONSTRAINT", constraint: HOST_ZONE("a") },
    },
    {
      name: "the type may be left out when one sub-message says it",
      input: { notConstraint: { constraint: hostLabel("a") } },
      expected: { type: "NOT_CONSTRAINT", constraint: HOST_ZONE("a") },
    },
  ];
  it.each(cases)("$name", ({ input, expected }) => expect(withConstraint(input)).toEqual(expected));
});

describe("job config schema: refusals name the field", () => {
  const cases: { name: string; input: Record<string, unknown>; path: string; says: RegExp }[] = [
    {
      name: "an unknown key",
      input: { owningteem: "x" },
      path: "",
      says: /Unrecognized key.*owningteem/,
    },
    {
      name: "an unknown key inside defaultConfig",
      input: { defaultConfig: { ...base.defaultConfig, volumes: [] } },
      path: "defaultConfig",
      says: /volumes/,
    },
    { name: "a job needs a name", input: { name: " " }, path: "name", says: /needs a name/ },
    {
      name: "an unknown job type number",
      input: { type: 7 },
      path: "type",
      says: /BATCH \(0\).*got 7/,
    },
    {
      name: "an instanceConfig key that is not an instance number",
      input: { instanceConfig: { x1: {} } },
      path: "instanceConfig.x1",
      says: /instance numbers/,
    },
    {
      name: "a constraint whose type names another sub-message",
      input: {
        defaultConfig: {
          ...base.defaultConfig,
          constraint: { type: 2, labelConstraint: hostLabel("a").labelConstraint },
        },
      },
      path: "defaultConfig.constraint.andConstraint",
      says: /type AND_CONSTRAINT takes andConstraint, not labelConstraint/,
    },
    {
      name: "a constraint with nothing in it",
      input: { defaultConfig: { ...base.defaultConfig, constraint: {} } },
      path: "defaultConfig.constraint",
      says: /needs a type/,
    },
    {
      name: "an AND of no constraints",
      input: {
        defaultConfig: {
          ...base.defaultConfig,
          constraint: { type: 2, andConstraint: { constraints: [] } },
        },
      },
      path: "defaultConfig.constraint.andConstraint.constraints",
      says: /at least 1|>=1|too small/i,
    },
    {
      name: "a condition Peloton does not have",
      input: {
        defaultConfig: {
          ...base.defaultConfig,
          constraint: { type: 1, labelConstraint: { kind: 2, condition: 9, label: { key: "k" } } },
        },
      },
      path: "defaultConfig.constraint.labelConstraint.condition",
      says: /LESS_THAN \(1\), EQUAL \(2\), GREATER_THAN \(3\); got 9/,
    },
    {
      name: "a health check timing below 0",
      input: { defaultConfig: { ...base.defaultConfig, healthCheck: { intervalSecs: -1 } } },
      path: "defaultConfig.healthCheck.intervalSecs",
      says: /≥ 0/,
    },
  ];
  it.each(cases)("$name", ({ input, path, says }) => {
    const r = parse(input);
    expect(r.success).toBe(false);
    const issues = r.success ? [] : r.error.issues;
    const hit = issues.find((i) => i.path.join(".") === path);
    expect(hit, JSON.stringify(issues)).toBeDefined();
    expect(hit?.message).toMatch(says);
  });
});
