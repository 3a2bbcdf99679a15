/**
 * Host schemas shared by the API, the console (filters in the URL) and the
 * CLI (`peloton host list`).
 */

import {
  boundedText,
  HOST_STATES,
  MAX_NAME_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_TERMS,
} from "@peloton/engine";
import { HOST_SORT_KEYS } from "@peloton/storage";
import { z } from "zod";
import { opaqueCursorSchema } from "./cursors.ts";
import { hostnameSchema } from "./host-actions.ts";

export const hostStateSchema = z.enum(HOST_STATES);

export { hostActionInput, hostnameSchema } from "./host-actions.ts";

export const hostListInput = z.object({
  /** Only hosts in these states (all when empty). */
  states: z.array(hostStateSchema).max(HOST_STATES.length).default([]),
  /** Attribute pairs every listed host has, e.g. {zone: "us-east-1a"}. */
  attributes: z
    .record(
      boundedText(MAX_NAME_LENGTH, {
        trim: true,
        min: 1,
        minMessage: "an attribute name is needed",
      }),
      boundedText(MAX_NAME_LENGTH, {
        trim: true,
        min: 1,
        minMessage: "an attribute value is needed",
      }),
    )
    .refine((a) => Object.keys(a).length <= MAX_SEARCH_TERMS, {
      message: `at most ${MAX_SEARCH_TERMS} attributes`,
    })
    .default({}),
  /** Part of the hostname. */
  text: boundedText(MAX_SEARCH_LENGTH, { trim: true }).default(""),
  sort: z.enum(HOST_SORT_KEYS).default("hostname"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.number().int().min(1).max(500).default(100),
  cursor: opaqueCursorSchema.nullish(),
});
export type HostListInput = z.input<typeof hostListInput>;

/** A host's own reads: its tasks and its maintenance history, page by page. */
export const hostPageInput = z.object({
  hostname: hostnameSchema,
  limit: z.number().int().min(1).max(500).default(100),
  cursor: opaqueCursorSchema.nullish(),
});
