/**
 * Host schemas shared by the API, the console (filters in the URL) and the
 * CLI (`peloton host list`).
 */
import { HOST_SORT_KEYS, HOST_STATES } from "@peloton/storage";
import { z } from "zod";

export const hostStateSchema = z.enum(HOST_STATES);

export const hostnameSchema = z
  .string()
  .trim()
  .min(1, "name a host")
  .max(253, "a hostname has at most 253 characters");

export const hostListInput = z.object({
  /** Only hosts in these states (all when empty). */
  states: z.array(hostStateSchema).max(HOST_STATES.length).default([]),
  /** Attribute pairs every listed host has, e.g. {zone: "us-east-1a"}. */
  attributes: z
    .record(
      z.string().trim().min(1, "an attribute name is needed").max(100),
      z.string().trim().min(1, "an attribute value is needed").max(200),
    )
    .default({}),
  /** Part of the hostname. */
  text: z.string().trim().max(200).default(""),
  sort: z.enum(HOST_SORT_KEYS).default("hostname"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.number().int().min(1).max(500).default(100),
  cursor: z.string().max(500).nullish(),
});
export type HostListInput = z.input<typeof hostListInput>;

export const hostActionInput = z.object({
  hostname: hostnameSchema,
  /** Why, for the audit log and the host's state reason. */
  reason: z.string().trim().max(500).default(""),
});
