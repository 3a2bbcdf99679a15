/**
 * Preemption history schemas shared by the API (`preemptions.list`,
 * `countsByPool`), the CSV export, the CLI (`peloton preemption list`) and
 * the console (filters in the URL): one filter schema, so a link, a CSV file
 * and a command line select the same rows. Imports nothing but zod and the
 * pool path rule, so it is safe in a browser bundle.
 */
import {
  boundedNumber,
  boundedText,
  MAX_INT32,
  PREEMPTION_KINDS,
  type PreemptionKind,
} from "@peloton/engine";
import { z } from "zod";
import { rowIdSchema } from "./cursors.ts";
import { poolPathSchema } from "./pools.ts";

/** How the console and the CLI name each kind. */
export const PREEMPTION_KIND_LABELS: Record<PreemptionKind, string> = {
  INTER_POOL: "inter-pool fairness",
  INTRA_POOL: "intra-pool priority",
};

export const POOL_SIDE_VALUES = ["either", "victim", "beneficiary"] as const;
export type PoolSideValue = (typeof POOL_SIDE_VALUES)[number];

const DURATION = /^(\d{1,6})(m|h|d|w)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** "30m", "24h", "7d", "2w" in milliseconds; null for anything else. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : null;
}

const TIME_HINT =
  "use an ISO time (2026-11-23T10:00:00Z) or a duration back from now (30m, 24h, 7d)";

/**
 * A time bound: a time, an ISO time text, or a duration back from now
 * ("24h": a day ago). Durations stay relative in links, so a shared
 * "last 24 hours" view means the last 24 hours whenever it is opened.
 */
export const timeBoundSchema = z
  .union([z.date(), boundedText(100, { trim: true, min: 1 })])
  .transform((v, ctx) => {
    if (v instanceof Date) return v;
    const ms = parseDuration(v);
    if (ms !== null) return new Date(Date.now() - ms);
    // An ISO date or date-time (with Z or an offset, or none: UTC is not assumed silently).
    if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)) {
      const t = new Date(v);
      if (!Number.isNaN(t.getTime())) return t;
    }
    ctx.addIssue({ code: "custom", message: `"${v}" is not a time: ${TIME_HINT}` });
    return z.NEVER;
  });

// Any 8-4-4-4-12 hex id (PostgreSQL's uuid), not only RFC 4122 ones.
const uuid = (what: string) => z.guid({ error: `${what} is an id like 0b5c7f2e-…-…` });

/** The filters of the list, the counts and the export: one shape, one rule. */
const filterShape = {
  /** A pool path, as recorded when the preemption happened. */
  pool: poolPathSchema.optional(),
  /** Which side of the preemption the pool was on; default either (in and out). */
  side: z.enum(POOL_SIDE_VALUES).default("either"),
  /** Include the pools below `pool`. */
  subtree: z.boolean().default(false),
  /** The victim's job id; with `instance`, one of its instances. */
  job: uuid("job").optional(),
  instance: boundedNumber(0, MAX_INT32, { whole: true }).optional(),
  /** The victim's task id. */
  task: uuid("task").optional(),
  kind: z.enum(PREEMPTION_KINDS).optional(),
  since: timeBoundSchema.optional(),
  until: timeBoundSchema.optional(),
};

function checkFilters(
  f: {
    instance?: number | undefined;
    job?: string | undefined;
    since?: Date | undefined;
    until?: Date | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (f.instance !== undefined && f.job === undefined) {
    ctx.addIssue({ code: "custom", path: ["instance"], message: "an instance needs its job" });
  }
  if (f.since && f.until && f.since >= f.until) {
    ctx.addIssue({ code: "custom", path: ["until"], message: "until must be after since" });
  }
}

export const preemptionFiltersSchema = z.object(filterShape).superRefine(checkFilters);
export type PreemptionFiltersInput = z.input<typeof preemptionFiltersSchema>;
export type PreemptionFiltersValue = z.output<typeof preemptionFiltersSchema>;

export const PREEMPTION_PAGE_MAX = 500;

/** `preemptions.list`: the filters, a page size and the cursor of the page before. */
export const preemptionListInput = z
  .object({
    ...filterShape,
    limit: z.number().int().min(1).max(PREEMPTION_PAGE_MAX).default(50),
    cursor: boundedText(40)
      .regex(/^\d{1,15}_\d{1,19}$/, "cursor is a value from an earlier page's nextCursor")
      .nullish(),
  })
  .superRefine(checkFilters);
export type PreemptionListInput = z.input<typeof preemptionListInput>;

export const preemptionGetInput = z.object({
  id: rowIdSchema("a preemption id is a number"),
});

/**
 * `preemptions.countsByPool`: the same filters, and how many of the busiest
 * pools keep their own series (the rest are summed as one).
 */
export const preemptionCountsInput = z
  .object({ ...filterShape, top: z.number().int().min(1).max(50).default(10) })
  .superRefine(checkFilters);

/** The time presets of the console and their durations (the URL keeps the name). */
export const TIME_PRESETS = ["1h", "6h", "24h", "7d", "30d"] as const;

type Params = { get(name: string): string | null };

/**
 * Filters from a query string (the console's URL, the CSV link): the same
 * names as the schema, `subtree=1`. Unknown or empty values are left out;
 * the schema judges the rest.
 */
export function preemptionFiltersFromQuery(params: Params): PreemptionFiltersInput {
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const instance = text("instance");
  const side = text("side");
  const kind = text("kind");
  return {
    pool: text("pool"),
    side: (POOL_SIDE_VALUES as readonly string[]).includes(side ?? "")
      ? (side as PoolSideValue)
      : "either",
    subtree: params.get("subtree") === "1",
    job: text("job"),
    instance: instance !== undefined && /^\d+$/.test(instance) ? Number(instance) : undefined,
    task: text("task"),
    kind: (PREEMPTION_KINDS as readonly string[]).includes(kind ?? "")
      ? (kind as PreemptionKind)
      : undefined,
    since: text("since"),
    until: text("until"),
  };
}

/** Back to query parameters; defaults are left out so links stay short. */
export function preemptionFiltersToQuery(f: PreemptionFiltersInput): URLSearchParams {
  const p = new URLSearchParams();
  if (f.pool) p.set("pool", f.pool);
  if (f.side && f.side !== "either") p.set("side", f.side);
  if (f.subtree) p.set("subtree", "1");
  if (f.job) p.set("job", f.job);
  if (f.instance !== undefined) p.set("instance", String(f.instance));
  if (f.task) p.set("task", f.task);
  if (f.kind) p.set("kind", f.kind);
  const time = (v: Date | string | undefined) => (v instanceof Date ? v.toISOString() : v);
  if (f.since) p.set("since", time(f.since)!);
  if (f.until) p.set("until", time(f.until)!);
  return p;
}
