/**
 * The engine's job config schema read through the API's Peloton YAML decoder
 * (peloton-semantics.md, "How Peloton's YAML files are spelled"): lowercase
 * or camelCase keys, enums as numbers or names, nulls as "not set", unknown
 * keys refused with their line. The fixtures use the same keys and forms as
 * Peloton's `example/*.yaml` job files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type JobConfig, jobConfigSchema, jobKind, validateJobConfig } from "@peloton/engine";
import { describe, expect, it } from "vitest";
import { ConfigError, parsePelotonYaml } from "../src/config/peloton-yaml.ts";

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, "fixtures/jobs", name), "utf8");
const load = (name: string): JobConfig => parsePelotonYaml(fixture(name), jobConfigSchema);

function issuesOf(text: string): string[] {
  try {
    parsePelotonYaml(text, jobConfigSchema);
  } catch (e) {
    if (e instanceof ConfigError) return e.issues.map((i) => `${i.field}@${i.line}: ${i.message}`);
    throw e;
  }
  return [];
}

describe("Peloton job files", () => {
  const files: { file: string; check: (c: JobConfig) => void }[] = [
    {
      file: "batch-lowercase.yaml",
      check: (c) => {
        expect(c.type).toBe("BATCH");
        expect(c.owningTeam).toBe("analytics");
        expect(c.instanceCount).toBe(4);
        expect(c.sla).toMatchObject({ priority: 10, preemptible: true, maxRunningTime: 3600 });
        expect(c.defaultConfig.resource).toEqual({
          cpuLimit: 0.5,
          memLimitMb: 256,
          diskLimitMb: 100,
          fdLimit: 100,
          gpuLimit: 0,
        });
        expect(c.defaultConfig.restartPolicy).toEqual({ maxFailures: 3 });
        expect(c.defaultConfig.healthCheck).toBeUndefined();
        expect(c.changeLog).toBeUndefined();
        expect(Object.keys(c.instanceConfig)).toEqual(["0", "3"]);
        expect(c.instanceConfig["3"]?.resource?.cpuLimit).toBe(1);
        expect(c.respoolId).toEqual({ value: "/analytics/batch" });
      },
    },
    {
      file: "docker-stateful.yaml",
      check: (c) => {
        expect(c.type).toBe("SERVICE");
        expect(jobKind(c)).toBe("STATEFUL");
        expect(c.defaultConfig.volume).toEqual({
          containerPath: "/var/lib/postgresql/data",
          sizeMB: 10240,
        });
        expect(c.defaultConfig.container).toMatchObject({
          type: "DOCKER",
          docker: {
            image: "postgres:16",
            parameters: [{ key: "env", value: "POSTGRES_DB=ledger" }],
          },
          volumes: [{ containerPath: "/etc/ledger", hostPath: "/etc/ledger", mode: "RO" }],
        });
      },
    },
    {
      file: "gpu-mesos-image.yaml",
      check: (c) => {
        expect(c.labels).toEqual([{ key: "model", value: "resnet50" }]);
        expect(c.defaultConfig.resource?.gpuLimit).toBe(2);
        expect(c.defaultConfig.container?.mesos?.image).toEqual({
          type: "DOCKER",
          docker: { name: "tensorflow/tensorflow:latest-gpu" },
        });
      },
    },
    {
      file: "constraints.yaml",
      check: (c) =>
        expect(c.defaultConfig.constraint).toEqual({
          type: "AND_CONSTRAINT",
          constraints: [
            {
              type: "LABEL_CONSTRAINT",
              kind: "HOST",
              condition: "EQUAL",
              requirement: 1,
              label: { key: "rack", value: "r12" },
            },
            {
              type: "LABEL_CONSTRAINT",
              kind: "TASK",
              condition: "EQUAL",
              requirement: 0,
              label: { key: "app", value: "edge_cache" },
            },
            {
              type: "NOT_CONSTRAINT",
              constraint: {
                type: "LABEL_CONSTRAINT",
                kind: "HOST",
                condition: "EQUAL",
                requirement: 1,
                label: { key: "zone", value: "maintenance" },
              },
            },
          ],
        }),
    },
    {
      file: "service-health-env.yaml",
      check: (c) => {
        expect(c.sla).toMatchObject({ preemptible: true, revocable: true });
        expect(c.defaultConfig.killGracePeriodSeconds).toBe(15);
        expect(c.defaultConfig.command?.environment?.variables).toEqual([
          { name: "LOG_LEVEL", value: "info" },
        ]);
        expect(c.defaultConfig.command?.uris?.[0]).toEqual({
          value: "https://example.org/site.tar.gz",
          extract: true,
          cache: false,
        });
        expect(c.defaultConfig.healthCheck).toMatchObject({
          enabled: true,
          type: "COMMAND",
          maxConsecutiveFailures: 3,
          commandCheck: { command: "curl -f localhost:$HTTP_PORT" },
        });
      },
    },
    {
      file: "camelcase.yaml",
      check: (c) => {
        expect(c.owningTeam).toBe("perf");
        expect(c.defaultConfig.resource?.cpuLimit).toBe(0.1);
        expect(c.placementStrategy).toBe("SPREAD_JOB");
      },
    },
  ];

  it.each(files)("$file parses and passes the job rules", ({ file, check }) => {
    const config = load(file);
    check(config);
    expect(validateJobConfig(config)).toEqual([]);
  });
});

describe("lowercase keys reach every level of the schema", () => {
  it("defaultconfig.resource.cpulimit is defaultConfig.resource.cpuLimit", () => {
    const c = parsePelotonYaml(
      "name: j\ninstancecount: 1\ndefaultconfig:\n  resource:\n    cpulimit: 3\n  command: {value: x}\n",
      jobConfigSchema,
    );
    expect(c.defaultConfig.resource?.cpuLimit).toBe(3);
  });

  it("keys inside an override of instanceconfig, and inside nested constraints", () => {
    const c = parsePelotonYaml(
      [
        "name: j",
        "instancecount: 1",
        "instanceconfig:",
        "  0:",
        "    killgraceperiodseconds: 5",
        "    constraint:",
        "      orconstraint:",
        "        constraints:",
        "        - labelconstraint: {kind: 2, condition: 1, requirement: 2, label: {key: k, value: v}}",
      ].join("\n"),
      jobConfigSchema,
    );
    expect(c.instanceConfig["0"]?.killGracePeriodSeconds).toBe(5);
    expect(c.instanceConfig["0"]?.constraint).toEqual({
      type: "OR_CONSTRAINT",
      constraints: [
        {
          type: "LABEL_CONSTRAINT",
          kind: "HOST",
          condition: "LESS_THAN",
          requirement: 2,
          label: { key: "k", value: "v" },
        },
      ],
    });
  });
});

describe("refusals name the key and its line", () => {
  const cases: { name: string; yaml: string; issue: string }[] = [
    {
      name: "a misspelt key (one of Peloton's examples writes healthcheck.enable)",
      yaml: "name: j\ndefaultconfig:\n  healthcheck:\n    enable: true\n",
      issue: 'defaultconfig.healthcheck.enable@4: unknown field "enable"',
    },
    {
      name: "the same key in both spellings",
      yaml: "name: j\ninstancecount: 1\ninstanceCount: 2\n",
      issue: 'instanceCount@3: "instanceCount" is given twice (as instanceCount)',
    },
    {
      name: "an unknown enum number, at its line",
      yaml: "name: j\ndefaultconfig:\n  constraint:\n    type: 9\n",
      issue:
        "defaultconfig.constraint.type@4: must be one of LABEL_CONSTRAINT (1), AND_CONSTRAINT (2), OR_CONSTRAINT (3), NOT_CONSTRAINT (4); got 9",
    },
    {
      name: "an instanceconfig key that is no instance number (the decoder points at its value)",
      yaml: "name: j\ninstanceconfig:\n  first:\n    name: x\n",
      issue:
        'instanceconfig.first@4: instanceConfig keys are instance numbers (0, 1, …); got "first"',
    },
  ];
  it.each(cases)("$name", ({ yaml, issue }) => expect(issuesOf(yaml)).toContain(issue));
});
