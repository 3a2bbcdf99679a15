/**
 * Update schemas (Peloton's update workflow, docs/updates.md) shared by the
 * API, the console's update form and the CLI's `update …` commands, and the
 * shape of an update as every one of them shows it (`UpdateView`).
 */
import {
  boundedNumber,
  boundedText,
  MAX_INSTANCES,
  MAX_INT32,
  MAX_YAML_LENGTH,
  UPDATE_KINDS,
  UPDATE_STATES,
  type UpdateKind,
  type UpdateState,
} from "@peloton/engine";
import { z } from "zod";
import { opaqueCursorSchema, rowIdCursorSchema } from "./cursors.ts";

export { UPDATE_KINDS, UPDATE_STATES, type UpdateKind, type UpdateState };

const jobId = boundedText(36).pipe(z.uuid("a job id is a UUID"));
export const updateIdSchema = boundedText(36).pipe(z.uuid("an update id is a UUID"));

/** Peloton's UpdateConfig; every field optional with Peloton's default (batchSize 1 here). */
export const updateOptionsSchema = z
  .object({
    batchSize: boundedNumber(0, MAX_INSTANCES, { whole: true }).default(1),
    /** Of the job's instances; above 0 it wins over batchSize. */
    batchPercentage: boundedNumber(0, 100).default(0),
    stopBeforeUpdate: z.boolean().default(false),
    startPaused: z.boolean().default(false),
    rollbackOnFailure: z.boolean().default(false),
    /** 0: unlimited attempts. */
    maxInstanceAttempts: boundedNumber(0, 1_000, { whole: true }).default(0),
    /** 0: no limit (Peloton). */
    maxFailureInstances: boundedNumber(0, MAX_INSTANCES, { whole: true }).default(0),
    inPlace: z.boolean().default(false),
    startTasks: z.boolean().default(false),
  })
  .superRefine((o, ctx) => {
    if (o.batchSize === 0 && o.batchPercentage === 0)
      ctx.addIssue({
        code: "custom",
        path: ["batchSize"],
        message: "a batch size of 0 needs a batchPercentage: give one of them above 0",
      });
  });
export type UpdateOptionsInput = z.input<typeof updateOptionsSchema>;

export const updateCreateInput = z.object({
  jobId,
  /** The job's new config: Peloton's job YAML, as written. */
  yaml: boundedText(MAX_YAML_LENGTH, { min: 1, minMessage: "the job config is empty" }),
  options: updateOptionsSchema.default({
    batchSize: 1,
    batchPercentage: 0,
    stopBeforeUpdate: false,
    startPaused: false,
    rollbackOnFailure: false,
    maxInstanceAttempts: 0,
    maxFailureInstances: 0,
    inPlace: false,
    startTasks: false,
  }),
  /** Peloton's -c: the job's config version you saw; refused when it moved since. */
  configVersion: boundedNumber(1, MAX_INT32, { whole: true }).optional(),
  /** Peloton's -o: abort the job's active update instead of being refused. */
  override: z.boolean().default(false),
});
export type UpdateCreateInput = z.input<typeof updateCreateInput>;

/** What an update to this config would do (Peloton's GetReplaceJobDiff); nothing is started. */
export const updateDiffInput = updateCreateInput.pick({
  jobId: true,
  yaml: true,
  configVersion: true,
});

export const updateRefInput = z.object({ id: updateIdSchema });

export const updateListInput = z.object({
  jobId,
  limit: z.number().int().min(1).max(200).default(20),
  cursor: opaqueCursorSchema.nullish(),
});

export const updateEventsInput = z.object({
  id: updateIdSchema,
  limit: z.number().int().min(1).max(500).default(100),
  cursor: rowIdCursorSchema.nullish(),
});

/** `jobs.configVersion`: one version of a job's configuration. */
export const jobConfigVersionInput = z.object({
  id: jobId,
  version: boundedNumber(1, MAX_INT32, { whole: true }),
});

export type BatchState = "DONE" | "CURRENT" | "WAITING" | "FAILED";

/** An update as the API answers it (docs/updates.md). */
export interface UpdateView {
  id: string;
  jobId: string;
  jobName: string;
  kind: UpdateKind;
  state: UpdateState;
  previousState: UpdateState | null;
  options: z.output<typeof updateOptionsSchema>;
  fromVersion: number;
  toVersion: number;
  instancesTotal: number;
  numTasksDone: number;
  numTasksRemaining: number;
  numTasksFailed: number;
  instancesCurrent: number[];
  /** Instances that reached the target, and that failed to (Peloton's instancesDone / instancesFailed). */
  instancesDone: number[];
  instancesFailed: number[];
  batches: { index: number; instances: number[]; state: BatchState }[];
  actor: string;
  message: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  version: number;
}
