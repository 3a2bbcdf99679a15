import { describe, expect, it } from "vitest";
import {
  HEALTH_STATE_LABELS,
  HEALTH_STATES,
  healthAfter,
  healthCheckSpecOf,
  initialHealthOf,
  jobConfigSchema,
  validateJobConfig,
} from "../src/index.ts";

describe("health check config → the check the cluster runs", () => {
  it("maps Peloton's timings to Mesos' and runs a COMMAND check with the task's environment", () => {
    const spec = healthCheckSpecOf(
      {
        healthCheck: {
          enabled: true,
          type: "COMMAND",
          initialIntervalSecs: 5,
          intervalSecs: 2,
          maxConsecutiveFailures: 4,
          timeoutSecs: 1,
          commandCheck: { command: "test -f ok" },
        },
      },
      { PELOTON_JOB_ID: "j" },
    );
    expect(spec).toEqual({
      type: "COMMAND",
      delaySeconds: 5,
      intervalSeconds: 2,
      consecutiveFailures: 4,
      timeoutSeconds: 1,
      command: { value: "test -f ok", environment: { PELOTON_JOB_ID: "j" } },
    });
  });

  it("leaves unset or zero timings to the cluster's defaults; unshareEnvironments keeps the env out", () => {
    const spec = healthCheckSpecOf(
      {
        healthCheck: {
          enabled: true,
          type: "COMMAND",
          intervalSecs: 0,
          commandCheck: { command: "true", unshareEnvironments: true },
        },
      },
      { A: "1" },
    );
    expect(spec).toEqual({ type: "COMMAND", command: { value: "true" } });
  });

  it("an HTTP check keeps scheme, port and path", () => {
    expect(
      healthCheckSpecOf({
        healthCheck: {
          enabled: true,
          type: "HTTP",
          httpCheck: { scheme: "http", port: 8080, path: "/health" },
        },
      }),
    ).toEqual({ type: "HTTP", http: { scheme: "http", port: 8080, path: "/health" } });
  });

  it("a check that is not enabled (or has no type) is not sent, and the run's health is DISABLED", () => {
    const off = { healthCheck: { type: "COMMAND" as const, commandCheck: { command: "true" } } };
    expect(healthCheckSpecOf(off)).toBeUndefined();
    expect(healthCheckSpecOf({})).toBeUndefined();
    expect(initialHealthOf(off)).toBe("DISABLED");
    expect(initialHealthOf({})).toBe("DISABLED");
    expect(initialHealthOf({ healthCheck: { ...off.healthCheck, enabled: true } })).toBe(
      "HEALTH_UNKNOWN",
    );
  });

  it("reads the YAML's enum names (COMMAND, HTTP) through the job config schema", () => {
    const parsed = jobConfigSchema.safeParse({
      name: "svc",
      type: "SERVICE",
      instanceCount: 1,
      defaultConfig: {
        command: { value: "sleep 100" },
        healthCheck: {
          enabled: true,
          type: "HTTP",
          intervalSecs: 3,
          httpCheck: { port: 80, path: "/" },
        },
      },
    });
    expect(parsed.success).toBe(true);
    if (parsed.success) {
      expect(healthCheckSpecOf(parsed.data.defaultConfig ?? {})).toEqual({
        type: "HTTP",
        intervalSeconds: 3,
        http: { port: 80, path: "/" },
      });
    }
  });
});

describe("a run's health after a check result", () => {
  it("moves only on a change, and never from DISABLED", () => {
    expect(healthAfter("HEALTH_UNKNOWN", true)).toBe("HEALTHY");
    expect(healthAfter("HEALTHY", true)).toBeUndefined();
    expect(healthAfter("HEALTHY", false)).toBe("UNHEALTHY");
    expect(healthAfter("UNHEALTHY", false)).toBeUndefined();
    expect(healthAfter("UNHEALTHY", true)).toBe("HEALTHY");
    expect(healthAfter("HEALTHY", null)).toBeUndefined();
    expect(healthAfter("DISABLED", true)).toBeUndefined();
    expect(healthAfter(null, false)).toBe("UNHEALTHY");
  });

  it("every health state has a label", () => {
    for (const h of HEALTH_STATES) expect(HEALTH_STATE_LABELS[h]).toBeTruthy();
  });
});

describe("health check validation", () => {
  const job = (healthCheck: Record<string, unknown>) => ({
    name: "svc",
    type: "SERVICE",
    instanceCount: 1,
    defaultConfig: {
      command: { value: "sleep 100" },
      resource: { cpuLimit: 0.1, memLimitMb: 32 },
      healthCheck,
    },
  });
  it("refuses an enabled check that does not say what to check, naming the field", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ enabled: true, type: "COMMAND" }, "defaultConfig.healthCheck.commandCheck.command"],
      [
        { enabled: true, type: "HTTP", httpCheck: { path: "/" } },
        "defaultConfig.healthCheck.httpCheck.port",
      ],
      [{ enabled: true }, "defaultConfig.healthCheck.type"],
    ];
    const problemsOf = (hc: Record<string, unknown>) =>
      validateJobConfig(jobConfigSchema.parse(job(hc))).map((p) => [p.code, p.field]);
    for (const [hc, field] of cases)
      expect(problemsOf(hc)).toContainEqual(["HEALTH_CHECK_INCOMPLETE", field]);
    expect(problemsOf({ type: "COMMAND" })).toEqual([]);
  });
});
