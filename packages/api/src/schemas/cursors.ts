/**
 * Page cursors: what a server handed back as `nextCursor`, bounded so that a
 * forged one is refused as input instead of failing in PostgreSQL (an events
 * cursor of 400 nines answered 500: bigint out of range).
 */
import { boundedText, MAX_CURSOR_LENGTH, MAX_ROW_ID } from "@peloton/engine";

const HINT = "cursor is a value from an earlier page's nextCursor";

/** A row id (PostgreSQL bigint) as text: 1–19 digits, at most 9,223,372,036,854,775,807. */
export function rowIdSchema(hint: string) {
  return boundedText(19)
    .regex(/^\d+$/, { message: hint, abort: true })
    .refine((v) => BigInt(v) <= MAX_ROW_ID, hint);
}

export const rowIdCursorSchema = rowIdSchema(HINT);

/** A cursor whose format only the server knows (a keyset, encoded). */
export const opaqueCursorSchema = boundedText(MAX_CURSOR_LENGTH);
