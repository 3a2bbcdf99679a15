/**
 * Job schemas shared by the API, the console (filters in the URL, the create
 * form) and the CLI (`peloton job …`). The job config itself is Peloton's
 * YAML, decoded and checked by the API (the engine's `jobConfigSchema` and
 * rules), so that every problem names its field and line.
 */
import {
  boundedList,
  boundedNumber,
  boundedText,
  JOB_STATES,
  JOB_TYPES,
  MAX_INSTANCES,
  MAX_INT32,
  MAX_NAME_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_TERMS,
  MAX_VALUE_LENGTH,
  MAX_YAML_LENGTH,
} from "@peloton/engine";
import { z } from "zod";
import { opaqueCursorSchema, rowIdCursorSchema } from "./cursors.ts";
import { poolPathSchema, versionSchema } from "./pools.ts";

export const JOB_SORT_NAMES = [
  "createdAt",
  "updatedAt",
  "name",
  "state",
  "priority",
  "instanceCount",
] as const;

export const jobIdSchema = boundedText(36).pipe(z.uuid("a job id is a UUID"));

/** One job; `waiting: false` leaves out why its tasks wait (an aggregate over them) for readers that never show it. */
export const jobGetInput = z.object({
  id: jobIdSchema,
  waiting: z.boolean().default(true),
});

/** A job id with the version the user acted on (optional: absent = act on the current one). */
export const jobRefInput = z.object({
  id: jobIdSchema,
  /** The job's version as the user saw it: a newer one means someone else acted first. */
  version: versionSchema.optional(),
});

export const jobCreateInput = z.object({
  /** Wins over the file's `respoolId` (Peloton's `job create <pool> <file>`). */
  pool: poolPathSchema.optional(),
  /** Peloton's job YAML, as written. */
  yaml: boundedText(MAX_YAML_LENGTH, { min: 1, minMessage: "the job config is empty" }),
});

export const jobListInput = z.object({
  /** Only these states (all but DELETED when empty). */
  states: z.array(z.enum(JOB_STATES)).max(JOB_STATES.length).default([]),
  types: z.array(z.enum(JOB_TYPES)).max(JOB_TYPES.length).default([]),
  pool: poolPathSchema.optional(),
  owner: boundedText(MAX_NAME_LENGTH, { trim: true }).optional(),
  /** Part of the name. */
  text: boundedText(MAX_SEARCH_LENGTH, { trim: true }).default(""),
  /** Every label must be on the job. */
  labels: boundedList(
    z.object({
      key: boundedText(MAX_NAME_LENGTH, { min: 1 }),
      value: boundedText(MAX_VALUE_LENGTH),
    }),
    MAX_SEARCH_TERMS,
  ).default([]),
  sort: z.enum(JOB_SORT_NAMES).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("desc"),
  limit: z.number().int().min(1).max(500).default(50),
  cursor: opaqueCursorSchema.nullish(),
  /** Also why each job's first waiting instance waits (the console's jobs page shows it). */
  waiting: z.boolean().default(false),
});
export type JobListInput = z.input<typeof jobListInput>;

/** Stop, start, restart: with a batch size the action rolls through an update (Peloton's RestartConfig). */
export const jobRollingInput = jobRefInput.extend({
  batchSize: boundedNumber(1, MAX_INSTANCES, { whole: true }).optional(),
});

export const jobScaleInput = jobRefInput.extend({
  instanceCount: boundedNumber(0, MAX_INSTANCES, { whole: true }),
});

/** A job's task events, newest first (the job page's timeline). */
export const jobEventsInput = z.object({
  id: jobIdSchema,
  /** One instance only; every instance when absent. */
  instance: boundedNumber(0, MAX_INT32, { whole: true }).optional(),
  /** Only events with this reason ("PREEMPTED", "ENQUEUED", …), as stored. */
  reason: boundedText(MAX_NAME_LENGTH, { trim: true, min: 1 }).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  cursor: rowIdCursorSchema.nullish(),
});
