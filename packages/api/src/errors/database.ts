/**
 * Database failures as answers: what a user's request made PostgreSQL refuse
 * (a duplicate, a value too long or out of range, bytes PostgreSQL cannot
 * store) is a 4xx with a sentence; an outage is 503. Recognised by codes,
 * whichever layer raised them: `pg` (SQLSTATE `code`, socket errors) or
 * Prisma over adapter-pg (`P…` codes, `meta.driverAdapterError.cause` with
 * `kind` and `originalCode`). The SQL and the driver's words stay in the
 * server log. (The leader helper's `isDatabaseUnavailable` in storage reads
 * the same facts; one of the two goes at merge.)
 */

export type DatabaseFault =
  | { kind: "unavailable" }
  | { kind: "timeout" }
  | { kind: "conflict"; field: string | null; message: string }
  | { kind: "invalid"; field: string | null; message: string };

export const UNAVAILABLE_MESSAGE = "the database is unreachable; try again shortly";

interface Facts {
  codes: Set<string>;
  kinds: Set<string>;
  messages: string[];
  /** Columns the driver named (constraint fields, `column`). */
  columns: string[];
}

function factsOf(err: unknown): Facts {
  const facts: Facts = { codes: new Set(), kinds: new Set(), messages: [], columns: [] };
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number) => {
    if (value === null || typeof value !== "object" || seen.has(value) || depth > 6) return;
    seen.add(value);
    const o = value as Record<string, unknown>;
    for (const key of ["code", "originalCode"])
      if (typeof o[key] === "string") facts.codes.add(o[key] as string);
    if (typeof o.kind === "string") facts.kinds.add(o.kind);
    if (typeof o.message === "string") facts.messages.push(o.message);
    if (typeof o.originalMessage === "string") facts.messages.push(o.originalMessage);
    if (typeof o.column === "string") facts.columns.push(o.column);
    const constraint = o.constraint as { fields?: unknown } | undefined;
    if (constraint && Array.isArray(constraint.fields))
      for (const f of constraint.fields) if (typeof f === "string") facts.columns.push(f);
    if (Array.isArray(o.target))
      for (const f of o.target) if (typeof f === "string") facts.columns.push(f);
    visit(o.cause, depth + 1);
    visit(o.meta, depth + 1);
    visit(o.driverAdapterError, depth + 1);
    if (Array.isArray(o.errors)) for (const e of o.errors) visit(e, depth + 1);
  };
  visit(err, 0);
  // Prisma's message names the SQLSTATE of a failed raw query ("Code: `22003`").
  for (const m of facts.messages)
    for (const hit of m.matchAll(/Code: `(\w{5})`/g)) facts.codes.add(hit[1]!);
  return facts;
}

const UNAVAILABLE_CODES = new Set([
  "57P01", // admin shutdown (pg_terminate_backend, a restart)
  "57P02", // crash shutdown
  "57P03", // cannot connect now (starting up)
  "53300", // too many connections
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "P1001", // cannot reach the database server
  "P1002", // timed out reaching it
  "P1008", // operation timed out
  "P1017", // the server closed the connection
  "P2024", // timed out waiting for a pool connection
]);
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
]);
const UNAVAILABLE_WORDS =
  /Connection terminated|terminating connection|timeout exceeded when trying to connect|Can't reach database server|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery)|Connection ended unexpectedly|connect ECONNREFUSED|Cannot use a pool after calling end/;

const fieldOf = (f: Facts): string | null => f.columns[0] ?? null;
const has = (f: Facts, ...codes: string[]) => codes.some((c) => f.codes.has(c));

/** What a database error means for the request, or null when it is not one (a bug: 500). */
export function classifyDatabaseError(err: unknown): DatabaseFault | null {
  const f = factsOf(err);
  if (
    [...f.codes].some((c) => UNAVAILABLE_CODES.has(c) || /^08[0-9A-Z]{3}$/.test(c)) ||
    [...f.kinds].some((k) => UNAVAILABLE_KINDS.has(k)) ||
    f.messages.some((m) => UNAVAILABLE_WORDS.test(m))
  )
    return { kind: "unavailable" };
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
