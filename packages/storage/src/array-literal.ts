/**
 * PostgreSQL array literals (`{"a","b",NULL}`) written in one pass, for the
 * hot paths' column arrays. `pg` encodes an array parameter the same way,
 * but through a type dispatch and two regex replaces per element; on a busy
 * cluster's batches (thousands of rows, a dozen columns) that was about a
 * tenth of the scheduler's CPU.
 *
 * Every element but NULL is quoted, so a string "NULL" stays a string; only
 * `"` and `\` need escaping inside quotes. Dates go as ISO 8601 in UTC (what
 * a timestamptz reads), objects as their JSON text (what a jsonb reads).
 */
export type ArrayElement = string | number | boolean | Date | object | null | undefined;

export function arrayLiteral(values: readonly ArrayElement[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) parts[i] = element(values[i]);
  return `{${parts.join(",")}}`;
}

function element(value: ArrayElement): string {
  if (value === null || value === undefined) return "NULL";
  switch (typeof value) {
    case "string":
      return quoted(value);
    case "number":
      return `"${value}"`;
    case "boolean":
      return value ? '"t"' : '"f"';
    default:
      return quoted(value instanceof Date ? value.toISOString() : JSON.stringify(value));
  }
}

const NEEDS_ESCAPE = /["\\]/;

function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(/["\\]/g, "\\$&")}"` : `"${text}"`;
}
