/**
 * Keyset pagination cursors (libraries.md: never OFFSET on big tables): a
 * page ends at a row, and the next page starts after that row's sort value
 * and unique key. The cursor is opaque to clients (base64url JSON).
 */
export interface KeysetCursor {
  /** The last row's sort value (ISO text for times). */
  v: string | number | null;
  /** The last row's unique key (the tie-breaker). */
  k: string | number;
}

/** Any cursor as clients see it: its fields as base64url JSON. */
export function encodeCursorJson(cursor: object): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/**
 * The fields of a cursor `encodeCursorJson` wrote, unchecked (the caller
 * checks their types), or undefined when the text is not base64url JSON.
 */
export function decodeCursorJson<T>(text: string): Partial<T> | undefined {
  try {
    const c: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    return typeof c === "object" && c !== null ? (c as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

export function encodeKeyset(cursor: KeysetCursor): string {
  return encodeCursorJson(cursor);
}

/** The cursor, or undefined when the text is not one of ours (treated as "from the start"). */
export function decodeKeyset(text: string | null | undefined): KeysetCursor | undefined {
  if (!text) return undefined;
  const c = decodeCursorJson<KeysetCursor>(text);
  if (c === undefined) return undefined;
  const validKey = typeof c.k === "string" || typeof c.k === "number";
  const validValue =
    c.v === undefined || c.v === null || typeof c.v === "string" || typeof c.v === "number";
  return validKey && validValue ? { v: c.v ?? null, k: c.k as string | number } : undefined;
}

/** A sort value as the cursor keeps it. */
export function cursorValue(value: unknown): string | number | null {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" || typeof value === "string") return value;
  return value === null || value === undefined ? null : String(value);
}

/**
 * The page a query for `limit + 1` rows makes: its first `limit` rows as
 * items and, when there was one more, a cursor after the last item.
 */
export function keysetPage<R, T>(
  rows: readonly R[],
  limit: number,
  toItem: (row: R) => T,
  cursorAfter: (last: R) => string,
): { items: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    nextCursor: rows.length > limit && last !== undefined ? cursorAfter(last) : null,
  };
}
