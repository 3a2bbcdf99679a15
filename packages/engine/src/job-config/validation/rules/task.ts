import type { JobType } from "../../../vocabulary/job-states.ts";
import type { JobConfig } from "../../schema/job-config.ts";
import type { JobConfigProblem } from "../problems.ts";
import type { TaskSource } from "../task-sources.ts";

const instancesOf = (s: TaskSource) =>
  s.lowest === s.highest ? `instance ${s.lowest}` : `instances ${s.lowest}–${s.highest}`;

/** Peloton: "missing command info for instance N". */
export function checkCommand(source: TaskSource): JobConfigProblem[] {
  const value = source.config.command?.value ?? "";
  return value.trim() === ""
    ? [
        {
          code: "COMMAND_MISSING",
          field: `${source.fieldOf("command")}.value`,
          message: `${instancesOf(source)} would run no command: give command.value`,
        },
      ]
    : [];
}

/**
 * Peloton's per-type task rules: a BATCH task takes no health check; a
 * service's `preemptionPolicy.killOnPreempt` must be false (a preempted
 * service task is always restarted). Peloton applies the second to SERVICE;
 * we apply it to every long-running kind.
 */
export function checkTaskForType(source: TaskSource, kind: JobType): JobConfigProblem[] {
  const problems: JobConfigProblem[] = [];
  if (kind === "BATCH" && source.config.healthCheck !== undefined)
    problems.push({
      code: "HEALTH_CHECK_ON_BATCH",
      field: source.fieldOf("healthCheck"),
      message: "a BATCH job's tasks take no health check (they are meant to exit)",
    });
  problems.push(...checkHealthCheck(source));
  if (kind !== "BATCH" && source.config.preemptionPolicy?.killOnPreempt === true)
    problems.push({
      code: "KILL_ON_PREEMPT_NOT_FOR_TYPE",
      field: `${source.fieldOf("preemptionPolicy")}.killOnPreempt`,
      message: `killOnPreempt must be false for a ${kind} job: its preempted tasks are restarted`,
    });
  return problems;
}

/**
 * An enabled health check must say what to check (Peloton refuses an empty
 * command or an HTTP check without a port): COMMAND with
 * commandCheck.command, or HTTP with httpCheck.port. GRPC is Peloton's
 * too, but Mesos' v1 HealthCheck has no gRPC kind for it to become.
 */
function checkHealthCheck(source: TaskSource): JobConfigProblem[] {
  const h = source.config.healthCheck;
  if (h?.enabled !== true) return [];
  const field = source.fieldOf("healthCheck");
  const problem = (at: string, message: string): JobConfigProblem[] => [
    { code: "HEALTH_CHECK_INCOMPLETE", field: `${field}.${at}`, message },
  ];
  if (h.type === "COMMAND" && (h.commandCheck?.command ?? "").trim() === "")
    return problem("commandCheck.command", "a COMMAND health check needs commandCheck.command");
  if (h.type === "HTTP" && !(h.httpCheck?.port ?? 0))
    return problem("httpCheck.port", "an HTTP health check needs httpCheck.port");
  if (h.type !== "COMMAND" && h.type !== "HTTP")
    return problem(
      "type",
      "an enabled health check needs type COMMAND or HTTP (GRPC is not supported)",
    );
  return [];
}

/**
 * Peloton: "only task 0 can be controller task". Ours: and only in a BATCH
 * job — Peloton's proto calls a controller "a special batch task which
 * controls other tasks inside a job" (a Spark driver).
 */
export function checkController(source: TaskSource, kind: JobType): JobConfigProblem[] {
  if (source.config.controller !== true) return [];
  const field = source.fieldOf("controller");
  if (kind !== "BATCH")
    return [
      {
        code: "CONTROLLER_NOT_BATCH",
        field,
        message: `controller tasks belong to BATCH jobs; this job is ${kind}`,
      },
    ];
  if (source.highest > 0)
    return [
      {
        code: "CONTROLLER_NOT_INSTANCE_ZERO",
        field,
        message: `only instance 0 may be a controller; ${instancesOf(source)} would be`,
      },
    ];
  return [];
}

/**
 * Peloton's `validatePreemptionPolicy`: a task may override the job's
 * `sla.preemptible` only outside the gang of the first
 * `minimumRunningInstances` instances, so a gang never mixes preemptible and
 * non-preemptible tasks.
 */
export function checkPreemptionInGang(source: TaskSource, config: JobConfig): JobConfigProblem[] {
  const type = source.config.preemptionPolicy?.type;
  if (type === undefined) return [];
  const m = config.sla.minimumRunningInstances;
  // A "gang" of one cannot be split (Peloton also flags instance 0 when m = 1).
  if (m <= 1 || source.lowest >= m || (type === "PREEMPTIBLE") === config.sla.preemptible)
    return [];
  return [
    {
      code: "PREEMPTION_POLICY_SPLITS_GANG",
      field: `${source.fieldOf("preemptionPolicy")}.type`,
      message: `${instancesOf(source)} belong to the gang of the first ${m} instances, which must all follow sla.preemptible (${config.sla.preemptible})`,
    },
  ];
}

/** Ours: numbers of the restart policy and the kill grace period are whole and ≥ 0. */
export function checkTaskCounts(source: TaskSource): JobConfigProblem[] {
  const problems: JobConfigProblem[] = [];
  const maxFailures = source.config.restartPolicy?.maxFailures;
  if (maxFailures !== undefined && !(Number.isInteger(maxFailures) && maxFailures >= 0))
    problems.push({
      code: "INVALID_COUNT",
      field: `${source.fieldOf("restartPolicy")}.maxFailures`,
      message: `maxFailures ${maxFailures} must be a whole number ≥ 0`,
    });
  const grace = source.config.killGracePeriodSeconds;
  if (grace !== undefined && !(Number.isInteger(grace) && grace >= 0))
    problems.push({
      code: "INVALID_COUNT",
      field: source.fieldOf("killGracePeriodSeconds"),
      message: `killGracePeriodSeconds ${grace} must be a whole number ≥ 0`,
    });
  return problems;
}
