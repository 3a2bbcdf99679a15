/**
 * Audit log schemas shared by the API (`audit.list`), the CLI (`peloton audit
 * list`) and the console (`/audit`, filters in the URL), and how both word a
 * change. Imports nothing but zod and the time-bound rule, so it is safe in a
 * browser bundle.
 */
import {
  boundedText,
  MAX_NAME_LENGTH,
  MAX_POOL_PATH_LENGTH,
  MAX_SEARCH_LENGTH,
} from "@peloton/engine";
import { z } from "zod";
import { opaqueCursorSchema } from "./cursors.ts";
import { timeBoundSchema } from "./preemptions.ts";

/** An audit row's outcome: the change was made, or the policy refused it (nothing changed). */
export const AUDIT_OUTCOMES = ["allowed", "refused"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const auditListInput = z
  .object({
    actor: boundedText(MAX_NAME_LENGTH, { trim: true, min: 1 }).optional(),
    /** An exact action ("job.stop") or a family ending in a dot ("job."). */
    action: boundedText(MAX_SEARCH_LENGTH, { trim: true })
      .regex(
        /^[a-z][a-zA-Z_-]*(\.[a-zA-Z_-]*)?$/,
        'an action looks like "job.stop", or "job." for all',
      )
      .optional(),
    targetType: boundedText(50, { trim: true, min: 1 }).optional(),
    /** Part of the target: a pool path, a job id, a hostname. */
    target: boundedText(MAX_POOL_PATH_LENGTH, { trim: true, min: 1 }).optional(),
    since: timeBoundSchema.optional(),
    until: timeBoundSchema.optional(),
    /** Accepted changes, or the attempts the policy refused. */
    outcome: z.enum(AUDIT_OUTCOMES).optional(),
    limit: z.number().int().min(1).max(200).default(50),
    cursor: opaqueCursorSchema.nullish(),
  })
  .refine((f) => !f.since || !f.until || f.since <= f.until, {
    message: "since must come before until",
    path: ["since"],
  });
export type AuditListInput = z.input<typeof auditListInput>;

/** One field of an audited target that a change moved. */
export interface AuditFieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.set(prefix, "(none)");
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out.set(prefix, value);
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An audit entry's before and after as the fields that differ, nested
 * objects flattened to dotted names ("resources.cpu.reservation"), so a pool
 * edit reads as the one number that moved, not two JSON documents. A created
 * or deleted target lists every field on one side. The console and the CLI
 * both show changes this way.
 */
export function auditChanges(before: unknown, after: unknown): AuditFieldChange[] {
  const b = flatten(before, "", new Map());
  const a = flatten(after, "", new Map());
  return [...new Set([...b.keys(), ...a.keys()])]
    .filter((f) => !same(b.get(f), a.get(f)))
    .map((field) => ({ field, before: b.get(field) ?? null, after: a.get(field) ?? null }));
}

const isRange = (v: unknown): v is { from: number; to: number } =>
  v !== null &&
  typeof v === "object" &&
  typeof (v as { from?: unknown }).from === "number" &&
  typeof (v as { to?: unknown }).to === "number";

/**
 * One audited value in words: instance ranges as "0–3, 7" (a restart of
 * some instances), lists joined, other objects as compact JSON; never
 * "[object Object]".
 */
export function formatAuditValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (isRange(value))
    return value.from === value.to ? `${value.from}` : `${value.from}–${value.to}`;
  if (Array.isArray(value))
    return value.length === 0 ? "(none)" : value.map(formatAuditValue).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** "reservation 10 → 12, limit 50 → 60 and 2 more": the first fields that moved, in words. */
export function describeAuditChange(before: unknown, after: unknown): string {
  if (before === null || before === undefined) return "created";
  if (after === null || after === undefined) return "deleted";
  const changes = auditChanges(before, after);
  const shown = changes
    .slice(0, 2)
    .map(
      (c) =>
        `${c.field.split(".").slice(-2).join(" ")} ${formatAuditValue(c.before)} → ${formatAuditValue(c.after)}`,
    );
  const more = changes.length - shown.length;
  return `${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}` || "no field changed";
}
