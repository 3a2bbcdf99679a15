/**
 * Task schemas shared by the API, the console (the instances table, the
 * instance page) and the CLI (`peloton task …`). A task is one instance of a
 * job: (job id, instance number); its runs are numbered from 1.
 */
import { TASK_STATES, type TaskState } from "@peloton/engine";
import { z } from "zod";
import { jobIdSchema } from "./jobs.ts";

export const TASK_SORT_NAMES = ["instance", "state", "host", "startedAt"] as const;

const instance = z.number().int("an instance is a whole number").min(0, "instances start at 0");

/** Instances from..to, both included ("0-3" on the command line). */
export const instanceRangeSchema = z
  .object({ from: instance, to: instance })
  .refine((r) => r.from <= r.to, { message: "a range goes from a lower to a higher instance" });

export const taskListInput = z.object({
  jobId: jobIdSchema,
  states: z
    .array(z.enum(TASK_STATES as [TaskState, ...TaskState[]]))
    .max(TASK_STATES.length)
    .default([]),
  host: z.string().trim().max(253).optional(),
  instanceFrom: instance.optional(),
  instanceTo: instance.optional(),
  sort: z.enum(TASK_SORT_NAMES).default("instance"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.number().int().min(1).max(1000).default(100),
  cursor: z.string().max(500).nullish(),
});
export type TaskListInput = z.input<typeof taskListInput>;

export const taskRefInput = z.object({ jobId: jobIdSchema, instance });

export const taskEventsInput = taskRefInput.extend({
  /** One run only; all runs when absent. */
  run: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(1000).default(200),
  cursor: z.string().regex(/^\d+$/).nullish(),
});

export const LOG_FILES = ["stdout", "stderr"] as const;

export const taskLogsInput = taskRefInput.extend({
  /** A run of the instance; the current one when absent. */
  run: z.number().int().min(1).optional(),
  file: z.enum(LOG_FILES).default("stdout"),
  /** Byte offset to read from; -1 (default) reads the last `length` bytes. */
  offset: z.number().int().min(-1).default(-1),
  length: z.number().int().min(1).max(1_048_576).default(65_536),
});

/** Follows a log as it grows: chunks from `offset` (the end when -1). */
export const taskLogsFollowInput = taskRefInput.extend({
  run: z.number().int().min(1).optional(),
  file: z.enum(LOG_FILES).default("stdout"),
  offset: z.number().int().min(-1).default(-1),
});

/** Instances to act on; every instance of the job when absent. */
export const taskActionInput = z.object({
  jobId: jobIdSchema,
  instances: z.array(instanceRangeSchema).min(1).max(100).optional(),
});
