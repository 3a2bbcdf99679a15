/**
 * Pool schemas shared by the API (input validation), the console (forms) and
 * the CLI (Peloton's respool YAML). Field names are Peloton's, in camelCase;
 * the YAML decoder also accepts the all-lowercase spelling.
 */

import {
  boundedList,
  boundedNumber,
  boundedText,
  formatCount,
  MAX_DESCRIPTION_LENGTH,
  MAX_INT32,
  MAX_LDAP_GROUPS,
  MAX_NAME_LENGTH,
  MAX_POOL_AMOUNT,
  MAX_POOL_NAME_LENGTH,
  MAX_POOL_PATH_LENGTH,
  MAX_POOL_RESOURCES,
  MAX_POOL_SHARE,
  pelotonEnum,
  RESERVATION_TYPE_NUMBERS,
  RESERVATION_TYPES,
  RESOURCE_KINDS,
  type ResourceKind,
} from "@peloton/engine";
import { z } from "zod";
import { rowIdCursorSchema } from "./cursors.ts";

export const resourceKindSchema = z.enum(RESOURCE_KINDS);

/** A pool's amount: finite, ≥ 0, at most MAX_POOL_AMOUNT (shares: MAX_POOL_SHARE). */
const amount = (what: string, max = MAX_POOL_AMOUNT) =>
  z
    .number({ error: `${what} must be a number` })
    .finite(`${what} must be a finite number`)
    .min(0, `${what} must be ≥ 0`)
    .max(max, {
      error: (iss) =>
        `${what}: at most ${formatCount(max)} (got ${formatCount(iss.input as number)})`,
    });

/** A version the user edited (PostgreSQL integer). */
export const versionSchema = boundedNumber(1, MAX_INT32, { whole: true });

/** A pool path: "/" or "/a/b" — segments of letters, digits, `_`, `-` and `.`. */
export const poolPathSchema = boundedText(MAX_POOL_PATH_LENGTH, { trim: true }).regex(
  /^\/$|^(\/[A-Za-z0-9_.-]+)+$/,
  'a pool path looks like "/team/batch" (letters, digits, _ - .)',
);

/** The console's page of a pool: `/infra/batch` → `/pools/infra/batch`. */
export function poolHref(path: string): string {
  return path === "/"
    ? "/pools"
    : `/pools/${path.slice(1).split("/").map(encodeURIComponent).join("/")}`;
}

export const poolNameSchema = boundedText(MAX_POOL_NAME_LENGTH, { trim: true }).regex(
  /^[A-Za-z0-9_.-]+$/,
  `a pool name uses letters, digits, _ - . (1–${MAX_POOL_NAME_LENGTH} characters)`,
);

export const resourceConfigSchema = z.strictObject({
  // Any string: the engine's validation names an unknown kind with the pool (rule 1).
  kind: boundedText(MAX_NAME_LENGTH),
  reservation: amount("reservation").default(0),
  limit: amount("limit").default(0),
  // Protobuf's zero value: a listed kind without a share has share 0.
  share: amount("share", MAX_POOL_SHARE).default(0),
  type: pelotonEnum(RESERVATION_TYPE_NUMBERS).default("ELASTIC"),
});

// Finite and ≥ 0 here; above 100 is the engine's rule (CONTROLLER_LIMIT_OVER_100), with its words.
const percentLimit = z.strictObject({
  maxPercent: z.number().min(0, "maxPercent must be ≥ 0"),
});

/** Peloton's ResourcePoolConfig as a respool YAML file holds it. */
export const respoolConfigSchema = z.strictObject({
  name: poolNameSchema,
  owningTeam: boundedText(MAX_NAME_LENGTH).default(""),
  ldapGroups: boundedList(boundedText(MAX_NAME_LENGTH), MAX_LDAP_GROUPS).default([]),
  description: boundedText(MAX_DESCRIPTION_LENGTH).default(""),
  resources: boundedList(resourceConfigSchema, MAX_POOL_RESOURCES).default([]),
  // 1 = priority FIFO, the only scheduling policy.
  policy: pelotonEnum({ PriorityFIFO: 1 }).default("PriorityFIFO"),
  controllerLimit: percentLimit.optional(),
  slackLimit: percentLimit.optional(),
  // The parent is given by the path; a file that names one is refused on create.
  parent: z
    .union([
      boundedText(MAX_POOL_PATH_LENGTH),
      z.strictObject({ value: boundedText(MAX_POOL_PATH_LENGTH) }),
    ])
    .optional(),
});
export type RespoolConfig = z.output<typeof respoolConfigSchema>;
export type RespoolConfigInput = z.input<typeof respoolConfigSchema>;

export const poolsCreateInput = z.object({
  path: poolPathSchema,
  config: respoolConfigSchema,
});

export const poolsUpdateInput = z.object({
  path: poolPathSchema,
  /** The version the user edited: a stale one is a conflict, never an overwrite. */
  version: versionSchema,
  config: respoolConfigSchema,
});

export const poolsDeleteInput = z.object({
  path: poolPathSchema,
  version: versionSchema.optional(),
});

export const poolsPreviewInput = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), path: poolPathSchema, config: respoolConfigSchema }),
  z.object({ action: z.literal("update"), path: poolPathSchema, config: respoolConfigSchema }),
  z.object({ action: z.literal("delete"), path: poolPathSchema }),
]);

export const poolsHistoryInput = z.object({
  path: poolPathSchema,
  cursor: rowIdCursorSchema.nullish(),
  limit: z.number().int().min(1).max(200).default(20),
});

export const SERIES_RANGES = ["15m", "1h", "6h", "24h", "7d"] as const;
export type SeriesRange = (typeof SERIES_RANGES)[number];
/** Each chart range's length. */
export const SERIES_RANGE_MS: Readonly<Record<SeriesRange, number>> = {
  "15m": 15 * 60_000,
  "1h": 60 * 60_000,
  "6h": 6 * 60 * 60_000,
  "24h": 24 * 60 * 60_000,
  "7d": 7 * 24 * 60 * 60_000,
};
export const poolsSeriesInput = z.object({
  path: poolPathSchema,
  range: z.enum(SERIES_RANGES).default("1h"),
});

export const poolsGetInput = z.object({ path: poolPathSchema });

// ─── the console's pool form ─────────────────────────────────────────────────
//
// The form edits one block per kind, so its field names are the ones the
// engine's errors carry (`resources.cpu.reservation`): a server-side issue
// lands beside the input it concerns without translation.

export const kindSettingsSchema = z.strictObject({
  reservation: amount("reservation"),
  limit: amount("limit"),
  share: amount("share", MAX_POOL_SHARE),
  type: z.enum(RESERVATION_TYPES),
});

const optionalPercent = (what: string) =>
  z
    .number({ error: `${what} must be a number (or leave it empty)` })
    .min(0, `${what} must be ≥ 0`)
    .nullable();

export const poolFormSchema = z.strictObject({
  name: poolNameSchema,
  owningTeam: boundedText(MAX_NAME_LENGTH, { trim: true }),
  description: boundedText(MAX_DESCRIPTION_LENGTH),
  /** Comma- or space-separated, as people type them. */
  ldapGroups: boundedText(MAX_LDAP_GROUPS * (MAX_NAME_LENGTH + 2)).refine(
    (v) => v.split(/[\s,]+/).filter(Boolean).length <= MAX_LDAP_GROUPS,
    `at most ${MAX_LDAP_GROUPS} groups`,
  ),
  resources: z.strictObject({
    cpu: kindSettingsSchema,
    gpu: kindSettingsSchema,
    memory: kindSettingsSchema,
    disk: kindSettingsSchema,
  }),
  controllerLimit: z.strictObject({ maxPercent: optionalPercent("controller limit") }),
  slackLimit: z.strictObject({ maxPercent: optionalPercent("slack limit") }),
});
export type PoolFormValues = z.input<typeof poolFormSchema>;

/** The form's values as the configuration the API takes (every kind listed). */
export function formToConfig(values: z.output<typeof poolFormSchema>): RespoolConfig {
  return {
    name: values.name,
    owningTeam: values.owningTeam,
    description: values.description,
    ldapGroups: values.ldapGroups.split(/[\s,]+/).filter(Boolean),
    resources: RESOURCE_KINDS.map((kind) => ({ kind, ...values.resources[kind] })),
    policy: "PriorityFIFO",
    ...(values.controllerLimit.maxPercent === null
      ? {}
      : { controllerLimit: { maxPercent: values.controllerLimit.maxPercent } }),
    ...(values.slackLimit.maxPercent === null
      ? {}
      : { slackLimit: { maxPercent: values.slackLimit.maxPercent } }),
  };
}

/** A stored configuration as the form's starting values (kinds it does not list take Peloton's defaults). */
export function configToForm(config: RespoolConfigInput): PoolFormValues {
  const kind = (k: ResourceKind) => {
    const r = config.resources?.find((e) => e.kind === k);
    return r
      ? {
          reservation: r.reservation ?? 0,
          limit: r.limit ?? 0,
          share: r.share ?? 0,
          type: r.type === "STATIC" || r.type === 2 ? ("STATIC" as const) : ("ELASTIC" as const),
        }
      : { reservation: 0, limit: 0, share: 1, type: "ELASTIC" as const };
  };
  return {
    name: config.name,
    owningTeam: config.owningTeam ?? "",
    description: config.description ?? "",
    ldapGroups: (config.ldapGroups ?? []).join(", "),
    resources: { cpu: kind("cpu"), gpu: kind("gpu"), memory: kind("memory"), disk: kind("disk") },
    controllerLimit: { maxPercent: config.controllerLimit?.maxPercent ?? null },
    slackLimit: { maxPercent: config.slackLimit?.maxPercent ?? null },
  };
}
