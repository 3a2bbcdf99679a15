/**
 * Job schemas shared by the API, the console (filters in the URL, the create
 * form) and the CLI (`peloton job …`). The job config itself is Peloton's
 * YAML, decoded and checked by the API (the engine's `jobConfigSchema` and
 * rules), so that every problem names its field and line.
 */
import { JOB_STATES, JOB_TYPE_NUMBERS, type JobState, type JobType } from "@peloton/engine";
import { z } from "zod";
import { poolPathSchema } from "./pools.ts";

// The state vocabulary, for filters and for what an action applies to (no server code).
export {
  GOAL_STATES,
  isTerminalJobState,
  isTerminalTaskState,
  JOB_STATES,
  type JobState,
  type JobType,
  TASK_STATES,
  type TaskState,
} from "@peloton/engine";

export const JOB_TYPE_NAMES = Object.keys(JOB_TYPE_NUMBERS) as [JobType, ...JobType[]];
export const JOB_SORT_NAMES = [
  "createdAt",
  "updatedAt",
  "name",
  "state",
  "priority",
  "instanceCount",
] as const;

export const jobIdSchema = z.uuid("a job id is a UUID");

/** A job id with the version the user acted on (optional: absent = act on the current one). */
export const jobRefInput = z.object({
  id: jobIdSchema,
  /** The job's version as the user saw it: a newer one means someone else acted first. */
  version: z.number().int().min(1).optional(),
});

export const jobCreateInput = z.object({
  /** Wins over the file's `respoolId` (Peloton's `job create <pool> <file>`). */
  pool: poolPathSchema.optional(),
  /** Peloton's job YAML, as written. */
  yaml: z
    .string()
    .min(1, "the job config is empty")
    .max(1_000_000, "a job config has at most 1,000,000 characters"),
});

export const jobListInput = z.object({
  /** Only these states (all but DELETED when empty). */
  states: z
    .array(z.enum(JOB_STATES as [JobState, ...JobState[]]))
    .max(JOB_STATES.length)
    .default([]),
  types: z.array(z.enum(JOB_TYPE_NAMES)).max(JOB_TYPE_NAMES.length).default([]),
  pool: poolPathSchema.optional(),
  owner: z.string().trim().max(200).optional(),
  /** Part of the name. */
  text: z.string().trim().max(200).default(""),
  /** Every label must be on the job. */
  labels: z
    .array(z.object({ key: z.string().min(1).max(200), value: z.string().max(200) }))
    .max(20)
    .default([]),
  sort: z.enum(JOB_SORT_NAMES).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("desc"),
  limit: z.number().int().min(1).max(500).default(50),
  cursor: z.string().max(500).nullish(),
});
export type JobListInput = z.input<typeof jobListInput>;

export const jobScaleInput = jobRefInput.extend({
  instanceCount: z
    .number()
    .int("instanceCount must be a whole number")
    .min(0, "instanceCount must be ≥ 0")
    .max(100_000, "a job has at most 100,000 instances"),
});

/** A job's task events, newest first (the job page's timeline). */
export const jobEventsInput = z.object({
  id: jobIdSchema,
  /** One instance only; every instance when absent. */
  instance: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  cursor: z.string().regex(/^\d+$/).nullish(),
});
