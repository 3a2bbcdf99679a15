/**
 * Task schemas shared by the API, the console (the instances table, the
 * instance page) and the CLI (`peloton task …`). A task is one instance of a
 * job: (job id, instance number); its runs are numbered from 1.
 */
import {
  boundedList,
  boundedNumber,
  boundedText,
  MAX_INSTANCE_RANGES,
  MAX_INT32,
  MAX_LOG_OFFSET,
  TASK_STATES,
} from "@peloton/engine";
import { z } from "zod";
import { opaqueCursorSchema, rowIdCursorSchema } from "./cursors.ts";
import { jobIdSchema } from "./jobs.ts";

export const TASK_SORT_NAMES = ["instance", "state", "host", "startedAt"] as const;

/** An instance id: 0 … 2,147,483,647 (PostgreSQL integer). */
const instance = boundedNumber(0, MAX_INT32, { whole: true });
/** A run of an instance, numbered from 1. */
const run = boundedNumber(1, MAX_INT32, { whole: true });

/** Instances from..to, both included ("0-3" on the command line). */
export const instanceRangeSchema = z
  .object({ from: instance, to: instance })
  .refine((r) => r.from <= r.to, { message: "a range goes from a lower to a higher instance" });

export const taskListInput = z.object({
  jobId: jobIdSchema,
  states: z.array(z.enum(TASK_STATES)).max(TASK_STATES.length).default([]),
  host: boundedText(253, { trim: true }).optional(),
  instanceFrom: instance.optional(),
  instanceTo: instance.optional(),
  sort: z.enum(TASK_SORT_NAMES).default("instance"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.number().int().min(1).max(1000).default(100),
  cursor: opaqueCursorSchema.nullish(),
});
export type TaskListInput = z.input<typeof taskListInput>;

export const taskRefInput = z.object({ jobId: jobIdSchema, instance });

export const taskEventsInput = taskRefInput.extend({
  /** One run only; all runs when absent. */
  run: run.optional(),
  limit: z.number().int().min(1).max(1000).default(200),
  cursor: rowIdCursorSchema.nullish(),
});

export const LOG_FILES = ["stdout", "stderr"] as const;

export const taskLogsInput = taskRefInput.extend({
  /** A run of the instance; the current one when absent. */
  run: run.optional(),
  file: z.enum(LOG_FILES).default("stdout"),
  /** Byte offset to read from; -1 (default) reads the last `length` bytes. */
  offset: boundedNumber(-1, MAX_LOG_OFFSET, { whole: true }).default(-1),
  length: z.number().int().min(1).max(1_048_576).default(65_536),
});

/** Follows a log as it grows: chunks from `offset` (the end when -1). */
export const taskLogsFollowInput = taskRefInput.extend({
  run: run.optional(),
  file: z.enum(LOG_FILES).default("stdout"),
  offset: boundedNumber(-1, MAX_LOG_OFFSET, { whole: true }).default(-1),
});

/** Instances to act on; every instance of the job when absent. */
export const taskActionInput = z.object({
  jobId: jobIdSchema,
  instances: boundedList(instanceRangeSchema, MAX_INSTANCE_RANGES).min(1).optional(),
});
