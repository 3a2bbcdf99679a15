/**
 * A task config's `healthCheck` (Peloton's HealthCheckConfig) as the check
 * the cluster runs, in the terms of a Mesos v1 HealthCheck (the Mesos host
 * adapter writes it out field for field), as Peloton's task builder makes it
 * (pkg/hostmgr/task/builder.go populateHealthCheck): initialIntervalSecs →
 * delay_seconds, intervalSecs → interval_seconds, timeoutSecs →
 * timeout_seconds, maxConsecutiveFailures → consecutive_failures (each only
 * when set above 0, else the cluster's default applies); a COMMAND check runs
 * through the shell with the task's environment unless unshareEnvironments.
 *
 * Unlike Peloton's builder, a check that is not `enabled` is not sent: the
 * run's health is DISABLED then, and Mesos must not report on it.
 */
import type { TaskConfig } from "../job-config/schema/task-config.ts";
import type { HealthState } from "../vocabulary/health-states.ts";

export interface HealthCheckSpec {
  type: "COMMAND" | "HTTP";
  delaySeconds?: number;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  consecutiveFailures?: number;
  /** COMMAND: run through /bin/sh -c in the task's sandbox. */
  command?: { value: string; environment?: Readonly<Record<string, string>> };
  /** HTTP: GET scheme://<task's host>:port/path; 2xx–3xx is healthy. */
  http?: { port: number; scheme?: string; path?: string };
}

type HealthCheckConfig = NonNullable<TaskConfig["healthCheck"]>;

/** True when the task has a health check that Mesos runs. */
export function hasEnabledHealthCheck(task: Pick<TaskConfig, "healthCheck">): boolean {
  const h = task.healthCheck;
  return h?.enabled === true && (h.type === "COMMAND" || h.type === "HTTP");
}

/** The health a new run starts with. */
export function initialHealthOf(task: Pick<TaskConfig, "healthCheck">): HealthState {
  return hasEnabledHealthCheck(task) ? "HEALTH_UNKNOWN" : "DISABLED";
}

/** The Mesos HealthCheck, or undefined when the task has none enabled. */
export function healthCheckSpecOf(
  task: Pick<TaskConfig, "healthCheck">,
  environment: Readonly<Record<string, string>> = {},
): HealthCheckSpec | undefined {
  const h = task.healthCheck;
  if (h === undefined || !hasEnabledHealthCheck(task)) return undefined;
  const out: HealthCheckSpec = { type: h.type === "HTTP" ? "HTTP" : "COMMAND", ...timings(h) };
  if (out.type === "COMMAND") {
    out.command = {
      value: h.commandCheck?.command ?? "",
      ...(h.commandCheck?.unshareEnvironments !== true && Object.keys(environment).length > 0
        ? { environment: { ...environment } }
        : {}),
    };
  } else {
    out.http = {
      port: h.httpCheck?.port ?? 0,
      ...(h.httpCheck?.scheme ? { scheme: h.httpCheck.scheme } : {}),
      ...(h.httpCheck?.path ? { path: h.httpCheck.path } : {}),
    };
  }
  return out;
}

function timings(h: HealthCheckConfig): Partial<HealthCheckSpec> {
  const out: Partial<HealthCheckSpec> = {};
  if ((h.initialIntervalSecs ?? 0) > 0) out.delaySeconds = h.initialIntervalSecs;
  if ((h.intervalSecs ?? 0) > 0) out.intervalSeconds = h.intervalSecs;
  if ((h.timeoutSecs ?? 0) > 0) out.timeoutSeconds = h.timeoutSecs;
  if ((h.maxConsecutiveFailures ?? 0) > 0) out.consecutiveFailures = h.maxConsecutiveFailures;
  return out;
}

/**
 * A run's health after a status update that carries `healthy` (the cluster
 * reports a check result), or undefined when it does not change. `current`
 * is null while the run has not reached RUNNING; a DISABLED run ignores
 * results (it has no check of ours), as Peloton does.
 */
export function healthAfter(
  current: HealthState | null,
  healthy: boolean | null,
): HealthState | undefined {
  if (healthy === null || current === "DISABLED") return undefined;
  const next: HealthState = healthy ? "HEALTHY" : "UNHEALTHY";
  return next === current ? undefined : next;
}
