/**
 * Database failures as answers: what a user's request made PostgreSQL refuse
 * (a duplicate, a value too long or out of range, bytes PostgreSQL cannot
 * store) is a 4xx with a sentence; an outage is 503. Recognised by codes,
 * whichever layer raised them: `pg` (SQLSTATE `code`, socket errors) or
 * Prisma over adapter-pg (`P…` codes, `meta.driverAdapterError.cause` with
 * `kind` and `originalCode`). The SQL and the driver's words stay in the
 * server log. The facts and the outage test are storage's, shared with the
 * retry helper and the leader election.
 */
import {
  type DatabaseErrorFacts,
  databaseErrorFacts,
  isDatabaseUnavailable,
} from "@peloton/storage";

export type DatabaseFault =
  | { kind: "unavailable" }
  | { kind: "timeout" }
  | { kind: "conflict"; field: string | null; message: string }
  | { kind: "invalid"; field: string | null; message: string };

export const UNAVAILABLE_MESSAGE = "the database is unreachable; try again shortly";

type Facts = DatabaseErrorFacts;

const fieldOf = (f: Facts): string | null => f.columns[0] ?? null;
const has = (f: Facts, ...codes: string[]) => codes.some((c) => f.codes.has(c));

/** What a database error means for the request, or null when it is not one (a bug: 500). */
export function classifyDatabaseError(err: unknown): DatabaseFault | null {
  if (isDatabaseUnavailable(err)) return { kind: "unavailable" };
  const f = databaseErrorFacts(err);
  const field = fieldOf(f);
  const named = (what: string) => (field ? `${field}: ${what}` : what);
  if (has(f, "23505", "P2002") || f.kinds.has("UniqueConstraintViolation"))
    return {
      kind: "conflict",
      field,
      message: named("a record with this value already exists"),
    };
  if (has(f, "40001", "40P01", "P2034") || f.kinds.has("TransactionWriteConflict"))
    return {
      kind: "conflict",
      field: null,
      message: "the change collided with another one made at the same time; try again",
    };
  if (has(f, "23503", "P2003") || f.kinds.has("ForeignKeyConstraintViolation"))
    return {
      kind: "conflict",
      field,
      message: named("it refers to something that no longer exists"),
    };
  if (has(f, "22001", "P2000") || f.kinds.has("LengthMismatch"))
    return { kind: "invalid", field, message: named("a value is too long to store") };
  if (has(f, "54000") || f.messages.some((m) => /index row (size|requires)/.test(m)))
    return {
      kind: "invalid",
      field,
      message: named("a value is too large to store or to index"),
    };
  if (has(f, "22003", "P2020") || f.kinds.has("ValueOutOfRange"))
    return {
      kind: "invalid",
      field,
      message: named("a number is out of the range it is stored in"),
    };
  if (has(f, "22021", "22P05") || f.messages.some((m) => /invalid byte sequence|0x00/.test(m)))
    return {
      kind: "invalid",
      field,
      message: named("text with bytes PostgreSQL cannot store (such as \\u0000)"),
    };
  if (
    has(f, "22P02", "22007", "22008", "P2007", "P2023") ||
    f.kinds.has("InvalidInputValue") ||
    [...f.codes].some((c) => c.startsWith("22"))
  )
    return { kind: "invalid", field, message: named("a value is not valid for what it names") };
  if (has(f, "23502", "23514", "P2011") || f.kinds.has("NullConstraintViolation"))
    return { kind: "invalid", field, message: named("a required value is missing or not allowed") };
  // A statement cancelled (statement_timeout, or our own time budget).
  if (has(f, "57014")) return { kind: "timeout" };
  return null;
}
