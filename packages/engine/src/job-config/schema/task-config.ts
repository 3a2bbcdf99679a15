/**
 * Peloton's `TaskConfig` (api/v0/task/task.proto) with camelCase keys. Every
 * top-level field is optional and has no default: an instance's entry in
 * `instanceConfig` overrides `defaultConfig` field by field, and "not given"
 * must stay distinguishable from "given" for that (merge.ts).
 *
 * Numbers the scheduler acts on (resources, ports, restart policy, volume
 * size, grace period) are only typed here; their ranges are rules in
 * validation/, which name the field and the numbers. Numbers passed through
 * to the host (health check timings) are checked here.
 */
import { z } from "zod";
import { pelotonEnum } from "../peloton-enum.ts";
import { constraintSchema } from "./constraint.ts";
import { containerSchema } from "./container.ts";
import { labelListSchema } from "./label.ts";

const count = (field: string) =>
  z.number().int(`${field} must be a whole number`).min(0, `${field} must be ≥ 0`);

export const resourceConfigSchema = z.strictObject({
  cpuLimit: z.number().default(0),
  memLimitMb: z.number().default(0),
  diskLimitMb: z.number().default(0),
  fdLimit: z.number().default(0),
  gpuLimit: z.number().default(0),
});

/** Mesos' `CommandInfo` as Peloton passes it through. */
const commandSchema = z.strictObject({
  shell: z.boolean().default(true),
  value: z.string().default(""),
  arguments: z.array(z.string()).optional(),
  environment: z
    .strictObject({
      variables: z.array(
        z.strictObject({ name: z.string().min(1), value: z.string().default("") }),
      ),
    })
    .optional(),
  uris: z
    .array(
      z.strictObject({
        value: z.string().min(1),
        executable: z.boolean().optional(),
        extract: z.boolean().optional(),
        cache: z.boolean().optional(),
        outputFile: z.string().optional(),
      }),
    )
    .optional(),
  user: z.string().optional(),
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
      command: z.string().default(""),
      unshareEnvironments: z.boolean().optional(),
    })
    .optional(),
  httpCheck: z
    .strictObject({
      scheme: z.string().optional(),
      port: count("httpCheck.port").optional(),
      path: z.string().optional(),
    })
    .optional(),
});

/** A named port: a static `value`, or dynamic (no value) exported as `envName`. */
export const portConfigSchema = z.strictObject({
  name: z.string().default(""),
  value: z.number().optional(),
  envName: z.string().optional(),
});

export const taskConfigSchema = z.strictObject({
  name: z.string().optional(),
  labels: labelListSchema.optional(),
  resource: resourceConfigSchema.optional(),
  container: containerSchema.optional(),
  command: commandSchema.optional(),
  healthCheck: healthCheckSchema.optional(),
  ports: z.array(portConfigSchema).optional(),
  constraint: constraintSchema.optional(),
  restartPolicy: z.strictObject({ maxFailures: z.number().default(0) }).optional(),
  volume: z
    .strictObject({ containerPath: z.string().default(""), sizeMB: z.number().default(0) })
    .optional(),
  preemptionPolicy: z
    .strictObject({
      type: pelotonEnum({ PREEMPTIBLE: 1, NON_PREEMPTIBLE: 2 }, { prefix: "TYPE_" }).optional(),
      killOnPreempt: z.boolean().optional(),
    })
    .optional(),
  /** Counts against the pool's controllerLimit (peloton-semantics.md §3). */
  controller: z.boolean().optional(),
  killGracePeriodSeconds: z.number().optional(),
  /** Overrides `sla.revocable` for this task. */
  revocable: z.boolean().optional(),
});

export type TaskConfig = z.output<typeof taskConfigSchema>;
export type TaskConfigInput = z.input<typeof taskConfigSchema>;
export type ResourceConfig = z.output<typeof resourceConfigSchema>;
export type PortConfig = z.output<typeof portConfigSchema>;
