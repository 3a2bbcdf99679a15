/**
 * A broken job config rule, as data: the code (a closed set), the field in
 * canonical camelCase (`defaultConfig.resource.cpuLimit`,
 * `instanceConfig.3.ports[1].value`), and one sentence with the numbers.
 * Codes marked (P) are Peloton's own checks (pkg/jobmgr/job/config/validate.go);
 * the others are ours.
 */
export const JOB_CONFIG_PROBLEM_CODES = [
  // Numbers
  "NOT_A_NUMBER",
  "NEGATIVE_RESOURCE",
  "RESOURCE_NOT_WHOLE",
  "TASK_ASKS_FOR_NOTHING",
  "INVALID_COUNT",
  // Instances
  "BATCH_WITHOUT_INSTANCES",
  "TOO_MANY_INSTANCES", // (P)
  "INSTANCE_CONFIG_OUT_OF_RANGE",
  "DAEMON_INSTANCE_CONFIG",
  // SLA
  "MAX_RUNNING_ABOVE_INSTANCE_COUNT", // (P)
  "MIN_RUNNING_ABOVE_MAX_RUNNING", // (P)
  "SLA_FIELD_NOT_FOR_TYPE", // (P) for SERVICE; ours for STATEFUL and DAEMON
  "REVOCABLE_NOT_PREEMPTIBLE", // (P) for SERVICE; ours for every type
  "DAEMON_GANG",
  // Task config
  "COMMAND_MISSING", // (P)
  "HEALTH_CHECK_ON_BATCH", // (P)
  "HEALTH_CHECK_INCOMPLETE", // (P)
  "KILL_ON_PREEMPT_NOT_FOR_TYPE", // (P)
  "CONTROLLER_NOT_INSTANCE_ZERO", // (P)
  "CONTROLLER_NOT_BATCH",
  "PREEMPTION_POLICY_SPLITS_GANG", // (P)
  "VOLUME_REQUIRED",
  "VOLUME_INVALID",
  "VOLUME_NOT_FOR_TYPE",
  // Ports
  "PORT_NAME_MISSING", // (P)
  "PORT_NAME_INVALID",
  "PORT_NAME_DUPLICATE",
  "PORT_ENV_NAME_MISSING", // (P)
  "PORT_ENV_NAME_INVALID",
  "PORT_VALUE_OUT_OF_RANGE",
  "PORT_VALUE_DUPLICATE",
] as const;

export type JobConfigProblemCode = (typeof JOB_CONFIG_PROBLEM_CODES)[number];

export interface JobConfigProblem {
  readonly code: JobConfigProblemCode;
  /** Where, in canonical camelCase. */
  readonly field: string;
  /** The rule and the numbers, e.g. "cpuLimit -1 is negative; resources must be ≥ 0". */
  readonly message: string;
}

/** "defaultConfig.resource.cpuLimit: cpuLimit -1 is negative; …" — the one line each edge shows. */
export function formatJobConfigProblem(p: JobConfigProblem): string {
  return `${p.field}: ${p.message}`;
}
