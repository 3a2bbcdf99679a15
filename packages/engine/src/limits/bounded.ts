/**
 * Zod builders that apply the input limits (limits.ts) with one wording:
 * every refusal names the limit and the size it got — "at most 4,096
 * characters (got 1,048,576)" — and the field comes from the path.
 * Size checks run first and abort, so an oversized value costs O(1) to refuse
 * (zod checks an array's length before its elements).
 */
import { z } from "zod";

/** 1048576 → "1,048,576"; keeps decimals and exponents readable ("1e+20" stays as it is). */
export function formatCount(n: number | bigint): string {
  if (typeof n === "number" && (!Number.isFinite(n) || Math.abs(n) >= 1e21)) return String(n);
  return n.toLocaleString("en-US", { maximumFractionDigits: 6 });
}

const NUL = "\u0000";

export interface TextOptions {
  /** Trim surrounding white space (after the length check). */
  readonly trim?: boolean;
  /** At least this many characters, with this message. */
  readonly min?: number;
  readonly minMessage?: string;
}

/** Text of at most `max` characters and no NUL byte (PostgreSQL text cannot hold one). */
export function boundedText(max: number, options: TextOptions = {}) {
  let s = z
    .string({ error: "must be text" })
    .max(max, {
      abort: true,
      error: (iss) =>
        `at most ${formatCount(max)} characters (got ${formatCount((iss.input as string).length)})`,
    })
    .refine((v) => !v.includes(NUL), {
      abort: true,
      message: "must not contain NUL bytes (\\u0000)",
    });
  if (options.trim) s = s.trim();
  if (options.min !== undefined)
    s = s.min(options.min, options.minMessage ?? `at least ${formatCount(options.min)} characters`);
  return s;
}

/** A list of at most `max` entries; the count is checked before any entry is. */
export function boundedList<T extends z.ZodType>(element: T, max: number) {
  return z.array(element).max(max, {
    error: (iss) =>
      `at most ${formatCount(max)} entries (got ${formatCount((iss.input as unknown[]).length)})`,
  });
}

/** A finite number in [min, max]; `whole` also asks for an integer. */
export function boundedNumber(
  min: number,
  max: number,
  options: { readonly whole?: boolean; readonly unit?: string } = {},
) {
  const unit = options.unit ? ` ${options.unit}` : "";
  const got = (iss: { input?: unknown }) => ` (got ${formatCount(iss.input as number)}${unit})`;
  let n = z
    .number({ error: "must be a number" })
    .refine((v) => Number.isFinite(v), { abort: true, message: "must be a finite number" })
    .refine((v) => v >= min, {
      abort: true,
      error: (iss) => `must be ≥ ${formatCount(min)}${unit}${got(iss)}`,
    })
    .refine((v) => v <= max, {
      abort: true,
      error: (iss) => `at most ${formatCount(max)}${unit}${got(iss)}`,
    });
  if (options.whole)
    n = n.refine((v) => Number.isInteger(v), { message: "must be a whole number" });
  return n;
}

/**
 * A finite number no larger than `max`; the lower bound is left to the rule
 * that words it with its own code (a negative resource, a count below 0).
 */
export function numberAtMost(max: number, options: { readonly unit?: string } = {}) {
  return boundedNumber(Number.NEGATIVE_INFINITY, max, options);
}

/** A value a user sent, quoted for a message but never longer than ~40 characters. */
export function quoteClipped(value: string, max = 40): string {
  return value.length <= max
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, max))}… (${formatCount(value.length)} characters)`;
}
