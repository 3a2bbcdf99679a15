import type { JobType } from "../../../vocabulary/job-states.ts";
import type { JobConfig } from "../../schema/job-config.ts";
import type { JobConfigProblem } from "../problems.ts";

const COUNTS = [
  "priority",
  "maximumRunningInstances",
  "minimumRunningInstances",
  "maxRunningTime",
  "maximumUnavailableInstances",
] as const;

/** Fields Peloton's `validateStatelessJobConfig` requires to be 0 for a service. */
const BATCH_ONLY = [
  "maximumRunningInstances",
  "minimumRunningInstances",
  "maxRunningTime",
] as const;

/**
 * The SLA: whole numbers ≥ 0 (ours); a revocable job is preemptible (Peloton
 * for SERVICE, ours for every type: revocable resources are taken back at
 * any time); the batch-only fields stay 0 for long-running jobs (Peloton for
 * SERVICE; ours for STATEFUL, its stateful form, and DAEMON, where
 * `minimumRunningInstances` > 1 would ask for a gang); and for BATCH,
 * minimumRunningInstances ≤ maximumRunningInstances ≤ instanceCount, a 0
 * maximum meaning instanceCount (Peloton's `validateTaskConfigWithRange`).
 */
export function checkSla(config: JobConfig, kind: JobType): JobConfigProblem[] {
  const sla = config.sla;
  const problems: JobConfigProblem[] = [];
  for (const f of COUNTS)
    if (!(Number.isInteger(sla[f]) && sla[f] >= 0))
      problems.push({
        code: "INVALID_COUNT",
        field: `sla.${f}`,
        message: `${f} ${sla[f]} must be a whole number ≥ 0`,
      });
  if (problems.length > 0) return problems;

  if (sla.revocable && !sla.preemptible)
    problems.push({
      code: "REVOCABLE_NOT_PREEMPTIBLE",
      field: "sla.revocable",
      message: "a revocable job must also be preemptible (sla.preemptible: true)",
    });
  if (kind === "BATCH") return [...problems, ...checkRunningInstances(config)];
  for (const f of BATCH_ONLY) {
    if (sla[f] === 0) continue;
    if (kind === "DAEMON" && f === "minimumRunningInstances")
      problems.push({
        code: "DAEMON_GANG",
        field: `sla.${f}`,
        message: `a DAEMON job cannot have gangs: minimumRunningInstances ${sla[f]} must be 0`,
      });
    else
      problems.push({
        code: "SLA_FIELD_NOT_FOR_TYPE",
        field: `sla.${f}`,
        message: `${f} ${sla[f]} applies to BATCH jobs only; it must be 0 for a ${kind} job`,
      });
  }
  return problems;
}

function checkRunningInstances(config: JobConfig): JobConfigProblem[] {
  const n = config.instanceCount;
  const { maximumRunningInstances: max, minimumRunningInstances: min } = config.sla;
  if (max > n)
    return [
      {
        code: "MAX_RUNNING_ABOVE_INSTANCE_COUNT",
        field: "sla.maximumRunningInstances",
        message: `maximumRunningInstances ${max} is above instanceCount ${n}`,
      },
    ];
  const effectiveMax = max === 0 ? n : max;
  return min > effectiveMax
    ? [
        {
          code: "MIN_RUNNING_ABOVE_MAX_RUNNING",
          field: "sla.minimumRunningInstances",
          message: `minimumRunningInstances ${min} is above ${max === 0 ? `instanceCount ${n}` : `maximumRunningInstances ${max}`}`,
        },
      ]
    : [];
}
