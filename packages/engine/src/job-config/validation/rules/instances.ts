import type { JobType } from "../../../vocabulary/job-states.ts";
import type { JobConfig } from "../../schema/job-config.ts";
import type { JobConfigProblem } from "../problems.ts";

/** Peloton's jobsvc default `MaxTasksPerJob` (larger jobs made Cassandra partitions too big). */
export const DEFAULT_MAX_TASKS_PER_JOB = 100_000;

/**
 * The instance count and the instance overrides. A DAEMON job runs one
 * instance per eligible host, so its `instanceCount` is ignored and its
 * instances have no fixed numbers to override (ours). Otherwise: a whole
 * number ≥ 0, at least 1 for BATCH (ours: a batch job of no tasks would
 * succeed at once), at most `maxTasksPerJob` (Peloton), and every
 * `instanceConfig` key names an instance that exists (ours: Peloton ignores
 * the others silently).
 */
export function checkInstances(
  config: JobConfig,
  kind: JobType,
  maxTasksPerJob: number,
): JobConfigProblem[] {
  const keys = Object.keys(config.instanceConfig);
  if (kind === "DAEMON")
    return keys.length > 0
      ? [
          {
            code: "DAEMON_INSTANCE_CONFIG",
            field: "instanceConfig",
            message:
              "a DAEMON job runs one instance per eligible host and takes no per-instance config",
          },
        ]
      : [];
  const n = config.instanceCount;
  if (!(Number.isInteger(n) && n >= 0))
    return [
      {
        code: "INVALID_COUNT",
        field: "instanceCount",
        message: `instanceCount ${n} must be a whole number ≥ 0`,
      },
    ];
  const problems: JobConfigProblem[] = [];
  if (kind === "BATCH" && n === 0)
    problems.push({
      code: "BATCH_WITHOUT_INSTANCES",
      field: "instanceCount",
      message: "a BATCH job needs instanceCount ≥ 1",
    });
  if (n > maxTasksPerJob)
    problems.push({
      code: "TOO_MANY_INSTANCES",
      field: "instanceCount",
      message: `instanceCount ${n} is above the ${maxTasksPerJob} tasks a job may have`,
    });
  for (const key of keys)
    if (Number(key) >= n)
      problems.push({
        code: "INSTANCE_CONFIG_OUT_OF_RANGE",
        field: `instanceConfig.${key}`,
        message: `instance ${key} does not exist: ${n > 0 ? `instances are 0–${n - 1}` : "there are none"} (instanceCount ${n})`,
      });
  return problems;
}
