/**
 * Peloton's `JobConfig` (api/v0/job/job.proto, peloton-semantics.md §3) with
 * camelCase canonical keys; the YAML decoder also accepts the all-lowercase
 * spelling. Every object is strict: an unknown key is an error. Shape only —
 * the rules between fields are in validation/.
 */
import { z } from "zod";
import {
  boundedList,
  boundedText,
  formatCount,
  numberAtMost,
  quoteClipped,
} from "../../limits/bounded.ts";
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_INSTANCES,
  MAX_INT32,
  MAX_LDAP_GROUPS,
  MAX_NAME_LENGTH,
  MAX_POOL_PATH_LENGTH,
  MAX_PRIORITY,
} from "../../limits/limits.ts";
import { JOB_TYPE_NUMBERS } from "../../vocabulary/job-states.ts";
import { pelotonEnum } from "../peloton-enum.ts";
import { labelListSchema } from "./label.ts";
import { taskConfigSchema } from "./task-config.ts";

export const slaSchema = z
  .strictObject({
    /** Higher runs first, and is preempted last. */
    priority: numberAtMost(MAX_PRIORITY).default(0),
    preemptible: z.boolean().default(false),
    revocable: z.boolean().default(false),
    /** 0 = instanceCount. */
    maximumRunningInstances: numberAtMost(MAX_INT32).default(0),
    /** > 1 makes instances 0 … n−1 one gang (gangs.ts). */
    minimumRunningInstances: numberAtMost(MAX_INT32).default(0),
    /** Seconds; 0 = no limit. */
    maxRunningTime: numberAtMost(MAX_INT32).default(0),
    maximumUnavailableInstances: numberAtMost(MAX_INT32).default(0),
    // An early Peloton SlaConfig had these; its example jobs still carry them
    // and Peloton ignores them. Accepted so those files load, then dropped.
    minimumInstanceCount: numberAtMost(MAX_INT32).optional(),
    minimumInstancePercent: numberAtMost(100).optional(),
  })
  .transform(({ minimumInstanceCount: _count, minimumInstancePercent: _percent, ...sla }) => sla);

/** `respoolId: {value: /infra/batch}`; Peloton's docs also write the bare string. */
const respoolIdSchema = z.union(
  [
    z.strictObject({ value: boundedText(MAX_POOL_PATH_LENGTH, { min: 1 }) }),
    boundedText(MAX_POOL_PATH_LENGTH, { min: 1 }).transform((value) => ({ value })),
  ],
  { error: "respoolId is a pool path: {value: /team/pool}" },
);

/** 0 … 2,147,483,647 written out: at most 10 digits, no sign, no leading zero. */
const INSTANCE_NUMBER = /^(0|[1-9]\d{0,9})$/;

/** Instance number (as written: "0", "12") → overrides of `defaultConfig`. */
const instanceConfigSchema = z.record(z.string(), taskConfigSchema);

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Bad keys named before the rest are left out of the answer. */
const MAX_KEYS_REPORTED = 20;

/**
 * The overrides' count and keys, checked on the raw input before any override
 * is parsed: at most one entry per instance (and never more than
 * MAX_INSTANCES), each keyed by an instance number. A file of 40,000
 * overrides for 100 instances is refused in one pass over its keys instead
 * of parsing and merging 40,000 task configs.
 */
function checkOverrideKeys(raw: unknown, ctx: z.RefinementCtx): void {
  if (!isObject(raw) || !isObject(raw.instanceConfig)) return;
  const keys = Object.keys(raw.instanceConfig);
  const count = raw.instanceCount;
  const perInstance =
    typeof count === "number" && Number.isInteger(count) && count > 0 && count < MAX_INSTANCES;
  const cap = perInstance ? count : MAX_INSTANCES;
  if (keys.length > cap) {
    ctx.addIssue({
      code: "custom",
      path: ["instanceConfig"],
      message: perInstance
        ? `at most ${formatCount(cap)} entries, one per instance (instanceCount ${formatCount(cap)}) (got ${formatCount(keys.length)})`
        : `at most ${formatCount(cap)} entries (got ${formatCount(keys.length)})`,
    });
    return;
  }
  let reported = 0;
  for (const key of keys) {
    if (INSTANCE_NUMBER.test(key)) continue;
    ctx.addIssue({
      code: "custom",
      path: ["instanceConfig", key],
      message: `instanceConfig keys are instance numbers (0, 1, …); got ${quoteClipped(key)}`,
    });
    if (++reported === MAX_KEYS_REPORTED) return;
  }
}

const jobConfigObjectSchema = z.strictObject({
  changeLog: z
    .strictObject({
      version: numberAtMost(MAX_INT32).optional(),
      createdAt: numberAtMost(Number.MAX_SAFE_INTEGER).optional(),
      updatedAt: numberAtMost(Number.MAX_SAFE_INTEGER).optional(),
      updatedBy: boundedText(MAX_NAME_LENGTH).optional(),
    })
    .optional(),
  name: boundedText(MAX_NAME_LENGTH, { trim: true, min: 1, minMessage: "a job needs a name" }),
  type: pelotonEnum(JOB_TYPE_NUMBERS).default("BATCH"),
  owningTeam: boundedText(MAX_NAME_LENGTH).default(""),
  owner: boundedText(MAX_NAME_LENGTH).optional(),
  ldapGroups: boundedList(boundedText(MAX_NAME_LENGTH), MAX_LDAP_GROUPS).default([]),
  description: boundedText(MAX_DESCRIPTION_LENGTH).default(""),
  labels: labelListSchema.default([]),
  /** Ignored by DAEMON jobs: they run one instance per eligible host. */
  instanceCount: numberAtMost(MAX_INT32).default(0),
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

/** A job config: its override counts first (fail fast), then its shape. */
export const jobConfigSchema = z
  .unknown()
  .superRefine(checkOverrideKeys)
  .pipe(jobConfigObjectSchema);

export type JobConfig = z.output<typeof jobConfigSchema>;
export type JobConfigInput = z.input<typeof jobConfigObjectSchema>;
export type SlaConfig = JobConfig["sla"];
