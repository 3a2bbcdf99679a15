import type { JobConfig } from "../schema/job-config.ts";
import { jobKind } from "../task-traits.ts";
import type { JobConfigProblem } from "./problems.ts";
import { checkInstances, DEFAULT_MAX_TASKS_PER_JOB } from "./rules/instances.ts";
import { checkPorts } from "./rules/ports.ts";
import { checkTaskResources } from "./rules/resources.ts";
import { checkSla } from "./rules/sla.ts";
import {
  checkCommand,
  checkController,
  checkPreemptionInGang,
  checkTaskCounts,
  checkTaskForType,
} from "./rules/task.ts";
import { checkVolume } from "./rules/volume.ts";
import { type TaskSource, taskSources } from "./task-sources.ts";

export interface JobConfigValidationOptions {
  /** Peloton's jobsvc `MaxTasksPerJob`; default 100,000. */
  readonly maxTasksPerJob?: number;
}

/**
 * The rules between a job config's fields (peloton-semantics.md §3), after
 * the schema has checked its shape. Every rule runs and every problem comes
 * back, each once: job-level rules first (instances, SLA), then the task
 * rules on `defaultConfig` (for the instances that do not override it) and on
 * each override merged over it. An empty list means the config is valid.
 */
export function validateJobConfig(
  config: JobConfig,
  options: JobConfigValidationOptions = {},
): JobConfigProblem[] {
  const kind = jobKind(config);
  const problems = [
    ...checkInstances(config, kind, options.maxTasksPerJob ?? DEFAULT_MAX_TASKS_PER_JOB),
    ...checkSla(config, kind),
  ];
  for (const source of sourcesToCheck(config))
    problems.push(
      ...checkTaskResources(source),
      ...checkCommand(source),
      ...checkPorts(source),
      ...checkTaskCounts(source),
      ...checkTaskForType(source, kind),
      ...checkController(source, kind),
      ...checkPreemptionInGang(source, config),
      ...checkVolume(source, kind),
    );
  return unique(problems);
}

/**
 * A DAEMON job's instances all run `defaultConfig` (its overrides are refused
 * by the instance rules). An invalid instance count leaves no instances to
 * look at, so only `defaultConfig` is checked then.
 */
function sourcesToCheck(config: JobConfig): TaskSource[] {
  const n = config.instanceCount;
  if (config.type === "DAEMON" || !(Number.isInteger(n) && n > 0))
    return taskSources({ ...config, instanceConfig: {} }, 1);
  return taskSources(config, n);
}

/** A default's problem is found again through every override that inherits it: keep it once. */
function unique(problems: JobConfigProblem[]): JobConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.code} ${p.field}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
