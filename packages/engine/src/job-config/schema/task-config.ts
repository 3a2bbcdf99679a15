/**
 * Peloton's `TaskConfig` (api/v0/task/task.proto) with camelCase keys. Every
 * top-level field is optional and has no default: an instance's entry in
 * `instanceConfig` overrides `defaultConfig` field by field, and "not given"
 * must stay distinguishable from "given" for that (merge.ts).
 *
 * Numbers the scheduler acts on (resources, ports, restart policy, volume
 * size, grace period) are capped here (limits.ts: no larger than a host could
 * have, or than PostgreSQL's integer); their other rules (≥ 0, whole) are in
 * validation/, which name the field and the numbers. Numbers passed through
 * to the host (health check timings) are checked here.
 */
import { z } from "zod";
import { boundedList, boundedText, numberAtMost } from "../../limits/bounded.ts";
import {
  MAX_ARGUMENTS,
  MAX_COMMAND_LENGTH,
  MAX_ENVIRONMENT_VARIABLES,
  MAX_INT32,
  MAX_NAME_LENGTH,
  MAX_PATH_LENGTH,
  MAX_PORTS,
  MAX_TASK_CPU,
  MAX_TASK_DISK_MB,
  MAX_TASK_FD,
  MAX_TASK_GPU,
  MAX_TASK_MEM_MB,
  MAX_URIS,
  MAX_VALUE_LENGTH,
} from "../../limits/limits.ts";
import { pelotonEnum } from "../peloton-enum.ts";
import { constraintSchema } from "./constraint.ts";
import { containerSchema } from "./container.ts";
import { labelListSchema } from "./label.ts";

const count = (field: string) =>
  numberAtMost(MAX_INT32)
    .refine(Number.isInteger, `${field} must be a whole number`)
    .min(0, `${field} must be ≥ 0`);

export const resourceConfigSchema = z.strictObject({
  cpuLimit: numberAtMost(MAX_TASK_CPU, { unit: "cores" }).default(0),
  memLimitMb: numberAtMost(MAX_TASK_MEM_MB, { unit: "MB" }).default(0),
  diskLimitMb: numberAtMost(MAX_TASK_DISK_MB, { unit: "MB" }).default(0),
  fdLimit: numberAtMost(MAX_TASK_FD).default(0),
  gpuLimit: numberAtMost(MAX_TASK_GPU, { unit: "GPUs" }).default(0),
});

/** Mesos' `CommandInfo` as Peloton passes it through. */
const commandSchema = z.strictObject({
  shell: z.boolean().default(true),
  value: boundedText(MAX_COMMAND_LENGTH).default(""),
  arguments: boundedList(boundedText(MAX_VALUE_LENGTH), MAX_ARGUMENTS).optional(),
  environment: z
    .strictObject({
      variables: boundedList(
        z.strictObject({
          name: boundedText(MAX_NAME_LENGTH, { min: 1 }),
          value: boundedText(MAX_VALUE_LENGTH).default(""),
        }),
        MAX_ENVIRONMENT_VARIABLES,
      ),
    })
    .optional(),
  uris: boundedList(
    z.strictObject({
      value: boundedText(MAX_VALUE_LENGTH, { min: 1 }),
      executable: z.boolean().optional(),
      extract: z.boolean().optional(),
      cache: z.boolean().optional(),
      outputFile: boundedText(MAX_PATH_LENGTH).optional(),
    }),
    MAX_URIS,
  ).optional(),
  user: boundedText(MAX_NAME_LENGTH).optional(),
});

const healthCheckSchema = z.strictObject({
  enabled: z.boolean().optional(),
  initialIntervalSecs: count("initialIntervalSecs").optional(),
  intervalSecs: count("intervalSecs").optional(),
  maxConsecutiveFailures: count("maxConsecutiveFailures").optional(),
  timeoutSecs: count("timeoutSecs").optional(),
  type: pelotonEnum({ COMMAND: 1, HTTP: 2, GRPC: 3 }).optional(),
  commandCheck: z
    .strictObject({
      command: boundedText(MAX_COMMAND_LENGTH).default(""),
      unshareEnvironments: z.boolean().optional(),
    })
    .optional(),
  httpCheck: z
    .strictObject({
      scheme: boundedText(MAX_NAME_LENGTH).optional(),
      port: count("httpCheck.port").optional(),
      path: boundedText(MAX_PATH_LENGTH).optional(),
    })
    .optional(),
});

/** A named port: a static `value`, or dynamic (no value) exported as `envName`. */
export const portConfigSchema = z.strictObject({
  name: boundedText(MAX_NAME_LENGTH).default(""),
  value: numberAtMost(MAX_INT32).optional(),
  envName: boundedText(MAX_NAME_LENGTH).optional(),
});

export const taskConfigSchema = z.strictObject({
  name: boundedText(MAX_NAME_LENGTH).optional(),
  labels: labelListSchema.optional(),
  resource: resourceConfigSchema.optional(),
  container: containerSchema.optional(),
  command: commandSchema.optional(),
  healthCheck: healthCheckSchema.optional(),
  ports: boundedList(portConfigSchema, MAX_PORTS).optional(),
  constraint: constraintSchema.optional(),
  restartPolicy: z.strictObject({ maxFailures: numberAtMost(MAX_INT32).default(0) }).optional(),
  volume: z
    .strictObject({
      containerPath: boundedText(MAX_PATH_LENGTH).default(""),
      sizeMB: numberAtMost(MAX_TASK_DISK_MB, { unit: "MB" }).default(0),
    })
    .optional(),
  preemptionPolicy: z
    .strictObject({
      type: pelotonEnum({ PREEMPTIBLE: 1, NON_PREEMPTIBLE: 2 }, { prefix: "TYPE_" }).optional(),
      killOnPreempt: z.boolean().optional(),
    })
    .optional(),
  /** Counts against the pool's controllerLimit (peloton-semantics.md §3). */
  controller: z.boolean().optional(),
  killGracePeriodSeconds: numberAtMost(MAX_INT32).optional(),
  /** Overrides `sla.revocable` for this task. */
  revocable: z.boolean().optional(),
});

export type TaskConfig = z.output<typeof taskConfigSchema>;
export type TaskConfigInput = z.input<typeof taskConfigSchema>;
export type ResourceConfig = z.output<typeof resourceConfigSchema>;
export type PortConfig = z.output<typeof portConfigSchema>;
