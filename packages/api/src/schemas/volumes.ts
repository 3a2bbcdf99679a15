/**
 * Persistent volume schemas shared by the API (`volumes.list`) and the
 * console (`/volumes`, filters in the URL). Imports nothing but zod and the
 * engine at run time, so it is safe in a browser bundle; the storage types
 * only check at compile time that both sides name the same sorts.
 */

import { boundedText, MAX_CURSOR_LENGTH, MAX_SEARCH_LENGTH, VOLUME_STATES } from "@peloton/engine";
import type { VolumeSortKey } from "@peloton/storage";
import { z } from "zod";
import { jobIdSchema } from "./jobs.ts";

/** job = job name then instance; the others fall back to that, and the id breaks the last tie. */
export const VOLUME_SORT_NAMES = [
  "job",
  "host",
  "size",
  "state",
  "createdAt",
] as const satisfies readonly VolumeSortKey[];

export const volumeListInput = z.object({
  /** Only volumes in these states (every state but DELETED when empty). */
  states: z.array(z.enum(VOLUME_STATES)).max(VOLUME_STATES.length).default([]),
  /** Only volumes on this host. */
  host: boundedText(253, { trim: true }).optional(),
  /** Only this job's volumes. */
  jobId: jobIdSchema.optional(),
  /** Part of the volume id or the job name. */
  text: boundedText(MAX_SEARCH_LENGTH, { trim: true }).default(""),
  sort: z.enum(VOLUME_SORT_NAMES).default("job"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.number().int().min(1).max(500).default(100),
  cursor: boundedText(2 * MAX_CURSOR_LENGTH).nullish(),
});
export type VolumeListInput = z.input<typeof volumeListInput>;
