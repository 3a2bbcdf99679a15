/**
 * Runs a task's Mesos HealthCheck the way the agent's health checker does
 * (src/checks/health_checker.cpp): the first check after `delay_seconds`,
 * then one every `interval_seconds`; a check fails on a non-zero exit, an
 * HTTP status outside 200–399, an error, or `timeout_seconds` elapsing.
 * Results go to `onResult` as Mesos' TaskHealthStatus does:
 *  - a success is reported on the first one and on the first after failures;
 *  - every failure is reported, with `killTask` once `consecutive_failures`
 *    have failed in a row;
 *  - failures before the first success within `grace_period_seconds` of
 *    the start are ignored.
 * COMMAND checks run `/bin/sh -c` in the task's sandbox with the check's
 * environment; HTTP checks GET the task's port on the agent's address. A
 * simulated run (no process) passes its checks, on the same schedule.
 */
import { spawn } from "node:child_process";
import type { HealthCheck } from "../proto/messages.ts";
import { signalGroup } from "./executor-process.ts";

/** Mesos' defaults (include/mesos/v1/mesos.proto, HealthCheck). */
const DEFAULTS = {
  delaySeconds: 15,
  intervalSeconds: 10,
  timeoutSeconds: 20,
  consecutiveFailures: 3,
  gracePeriodSeconds: 10,
};

export interface HealthResult {
  healthy: boolean;
  /** The executor must kill the task (`consecutive_failures` reached). */
  killTask: boolean;
  consecutiveFailures: number;
}

export interface HealthCheckTarget {
  check: HealthCheck;
  /** Where a COMMAND check runs (the task's sandbox); undefined for a simulated run, whose checks pass. */
  sandbox: string | undefined;
  /** The address HTTP checks reach the task on. */
  host: string;
  env: Record<string, string>;
  onResult(result: HealthResult): void;
}

export interface HealthChecker {
  stop(): void;
}

/** True when the sim can run this check (COMMAND or HTTP, as the command executor). */
export function isRunnableHealthCheck(check: HealthCheck | undefined): check is HealthCheck {
  return (
    (check?.type === "COMMAND" && typeof check.command?.value === "string") ||
    (check?.type === "HTTP" && typeof check.http?.port === "number")
  );
}

export function startHealthChecker(target: HealthCheckTarget): HealthChecker {
  const c = target.check;
  const secs = (v: number | undefined, d: number) => (v !== undefined && v >= 0 ? v : d);
  const delayMs = secs(c.delay_seconds, DEFAULTS.delaySeconds) * 1000;
  const intervalMs = secs(c.interval_seconds, DEFAULTS.intervalSeconds) * 1000;
  const timeoutMs = secs(c.timeout_seconds, DEFAULTS.timeoutSeconds) * 1000;
  const graceMs = secs(c.grace_period_seconds, DEFAULTS.gracePeriodSeconds) * 1000;
  const maxFailures = c.consecutive_failures ?? DEFAULTS.consecutiveFailures;
  const startedAt = Date.now();
  let initializing = true;
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let cancel: (() => void) | undefined;

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };
  const run = () => {
    const attempt =
      target.sandbox === undefined
        ? { result: Promise.resolve(true), cancel: () => undefined }
        : c.type === "HTTP"
          ? httpCheck(target, timeoutMs)
          : commandCheck(target, target.sandbox, timeoutMs);
    cancel = attempt.cancel;
    void attempt.result.then((ok) => {
      cancel = undefined;
      if (stopped) return;
      if (ok) {
        if (initializing || failures > 0) {
          target.onResult({ healthy: true, killTask: false, consecutiveFailures: 0 });
        }
        initializing = false;
        failures = 0;
      } else if (!(initializing && Date.now() - startedAt <= graceMs)) {
        failures += 1;
        target.onResult({
          healthy: false,
          killTask: maxFailures > 0 && failures >= maxFailures,
          consecutiveFailures: failures,
        });
      }
      schedule(intervalMs);
    });
  };
  schedule(delayMs);
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      cancel?.();
    },
  };
}

interface Attempt {
  result: Promise<boolean>;
  cancel: () => void;
}

function commandCheck(target: HealthCheckTarget, sandbox: string, timeoutMs: number): Attempt {
  const env = { ...target.env };
  for (const v of target.check.command?.environment?.variables ?? []) {
    if (v.value !== undefined) env[v.name] = v.value;
  }
  const child = spawn("/bin/sh", ["-c", target.check.command?.value ?? ""], {
    cwd: sandbox,
    env: env as NodeJS.ProcessEnv,
    stdio: "ignore",
    detached: true,
  });
  const kill = () => signalGroup(child.pid, "SIGKILL");
  const result = new Promise<boolean>((resolve) => {
    const timeout = setTimeout(() => {
      kill();
      resolve(false);
    }, timeoutMs);
    timeout.unref();
    child.once("error", () => {
      clearTimeout(timeout);
      resolve(false);
    });
    child.once("exit", (code) => {
      clearTimeout(timeout);
      resolve(code === 0);
    });
  });
  return { result, cancel: kill };
}

function httpCheck(target: HealthCheckTarget, timeoutMs: number): Attempt {
  const http = target.check.http;
  const scheme = http?.scheme ?? "http";
  const path = http?.path ?? "/";
  const url = `${scheme}://${target.host}:${http?.port ?? 0}${path.startsWith("/") ? path : `/${path}`}`;
  const abort = new AbortController();
  const timeout = setTimeout(() => abort.abort(), timeoutMs);
  timeout.unref();
  const result = fetch(url, { signal: abort.signal, redirect: "manual" })
    .then(async (res) => {
      await res.body?.cancel();
      return res.status >= 200 && res.status < 400;
    })
    .catch(() => false)
    .finally(() => clearTimeout(timeout));
  return { result, cancel: () => abort.abort() };
}
