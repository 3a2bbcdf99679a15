/**
 * Peloton's `--range FROM:TO` (cmd/cli: `:` is every instance, `:200` the
 * first 200, `50:` from 50 to the end; TO is excluded) turned into the API's
 * ranges, which include both ends.
 */
import { CliError } from "../errors.ts";

export interface RangeArg {
  from: number;
  /** Excluded; undefined = to the end. */
  to: number | undefined;
}

function bound(text: string, side: "FROM" | "TO", value: string): number {
  if (!/^\d+$/.test(text))
    throw new CliError(`--range ${value}: ${side} must be a whole number ≥ 0, got "${text}"`);
  return Number(text);
}

export function parseRange(value: string): RangeArg {
  const parts = value.split(":");
  if (parts.length !== 2) throw new CliError(`--range expects FROM:TO, got "${value}"`);
  const [from, to] = parts as [string, string];
  return {
    from: from === "" ? 0 : bound(from, "FROM", value),
    to: to === "" ? undefined : bound(to, "TO", value),
  };
}

/** commander's collector for a repeatable `--range`. */
export function collectRange(value: string, previous: RangeArg[] = []): RangeArg[] {
  return [...previous, parseRange(value)];
}

/**
 * The API's inclusive ranges for a job of `instanceCount` instances; an open
 * end stops at the last instance. Undefined (every instance) when no range
 * is given or one covers them all.
 */
export function apiRanges(
  ranges: readonly RangeArg[],
  instanceCount: number,
): { from: number; to: number }[] | undefined {
  if (ranges.length === 0) return undefined;
  const out: { from: number; to: number }[] = [];
  for (const r of ranges) {
    if (r.from === 0 && (r.to === undefined || r.to >= instanceCount)) return undefined;
    const to = Math.min(r.to ?? instanceCount, instanceCount) - 1;
    if (to < r.from)
      throw new CliError(
        `--range ${r.from}:${r.to ?? ""} holds no instance of this job (it has ${instanceCount}: 0 to ${instanceCount - 1})`,
      );
    out.push({ from: r.from, to });
  }
  return out;
}

/** Go's `%v` of a list of numbers: `[0 1 2]`. */
export function goList(values: readonly number[]): string {
  return `[${values.join(" ")}]`;
}
