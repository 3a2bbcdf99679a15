/**
 * Peloton's `JobConfig` (api/v0/job/job.proto, peloton-semantics.md §3) with
 * camelCase canonical keys; the YAML decoder also accepts the all-lowercase
 * spelling. Every object is strict: an unknown key is an error. Shape only —
 * the rules between fields are in validation/.
 */
import { z } from "zod";
import { pelotonEnum } from "../peloton-enum.ts";
import { labelListSchema } from "./label.ts";
import { taskConfigSchema } from "./task-config.ts";

export const JOB_TYPE_NUMBERS = { BATCH: 0, SERVICE: 1, DAEMON: 2, STATEFUL: 3 } as const;
export type JobType = keyof typeof JOB_TYPE_NUMBERS;

export const slaSchema = z
  .strictObject({
    /** Higher runs first, and is preempted last. */
    priority: z.number().default(0),
    preemptible: z.boolean().default(false),
    revocable: z.boolean().default(false),
    /** 0 = instanceCount. */
    maximumRunningInstances: z.number().default(0),
    /** > 1 makes instances 0 … n−1 one gang (gangs.ts). */
    minimumRunningInstances: z.number().default(0),
    /** Seconds; 0 = no limit. */
    maxRunningTime: z.number().default(0),
    maximumUnavailableInstances: z.number().default(0),
    // An early Peloton SlaConfig had these; its example jobs still carry them
    // and Peloton ignores them. Accepted so those files load, then dropped.
    minimumInstanceCount: z.number().optional(),
    minimumInstancePercent: z.number().optional(),
  })
  .transform(({ minimumInstanceCount: _count, minimumInstancePercent: _percent, ...sla }) => sla);

/** `respoolId: {value: /infra/batch}`; Peloton's docs also write the bare string. */
const respoolIdSchema = z.union(
  [
    z.strictObject({ value: z.string().min(1) }),
    z
      .string()
      .min(1)
      .transform((value) => ({ value })),
  ],
  { error: "respoolId is a pool path: {value: /team/pool}" },
);

const INSTANCE_NUMBER = /^(0|[1-9]\d*)$/;

/** Instance number (as written: "0", "12") → overrides of `defaultConfig`. */
const instanceConfigSchema = z
  .record(z.string(), taskConfigSchema)
  .superRefine((overrides, ctx) => {
    for (const key of Object.keys(overrides))
      if (!INSTANCE_NUMBER.test(key))
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `instanceConfig keys are instance numbers (0, 1, …); got ${JSON.stringify(key)}`,
        });
  });

export const jobConfigSchema = z.strictObject({
  changeLog: z
    .strictObject({
      version: z.number().optional(),
      createdAt: z.number().optional(),
      updatedAt: z.number().optional(),
      updatedBy: z.string().optional(),
    })
    .optional(),
  name: z.string().trim().min(1, "a job needs a name"),
  type: pelotonEnum(JOB_TYPE_NUMBERS).default("BATCH"),
  owningTeam: z.string().default(""),
  owner: z.string().optional(),
  ldapGroups: z.array(z.string()).default([]),
  description: z.string().default(""),
  labels: labelListSchema.default([]),
  /** Ignored by DAEMON jobs: they run one instance per eligible host. */
  instanceCount: z.number().default(0),
  sla: slaSchema.prefault({}),
  defaultConfig: taskConfigSchema.default({}),
  instanceConfig: instanceConfigSchema.default({}),
  /** The pool; the command line's pool argument wins over it. */
  respoolId: respoolIdSchema.optional(),
  placementStrategy: pelotonEnum(
    { PACK_HOST: 1, SPREAD_JOB: 2 },
    { prefix: "PLACEMENT_STRATEGY_" },
  ).optional(),
});

export type JobConfig = z.output<typeof jobConfigSchema>;
export type JobConfigInput = z.input<typeof jobConfigSchema>;
export type SlaConfig = JobConfig["sla"];
