/**
 * What kind of database failure an error is, whichever layer raised it:
 * `pg` itself (a driver error with a SQLSTATE `code`, a socket error), or
 * Prisma over adapter-pg (a `PrismaClientKnownRequestError` whose
 * `meta.driverAdapterError.cause` carries `kind` and `originalCode`/`code`).
 * The API maps these to HTTP answers; the retry helper and the leader
 * election decide with them.
 */

/** SQLSTATE of the lease fence (migration `lease_fencing`): a deposed leader's write. */
export const FENCED_SQLSTATE = "PLF01";

/** Serialization failure and deadlock: the rows are fine, the timing was not; run it again. */
const CONFLICT_CODES = new Set(["40001", "40P01"]);

/**
 * The server is gone or going: connection exceptions (08…), shutdown and
 * start-up (57P01–57P03), and socket errors. Also `pg`'s own words for a
 * connection it lost or could not get in time.
 */
const UNAVAILABLE_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  // Prisma's own: cannot reach, timed out, server closed the connection, pool wait timed out.
  "P1001",
  "P1002",
  "P1017",
  "P2024",
]);
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
const UNAVAILABLE_WORDS =
  /Connection terminated|terminating connection|timeout exceeded when trying to connect|Can't reach database server|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery)|Connection ended unexpectedly|connect ECONNREFUSED/;

interface Facts {
  codes: Set<string>;
  kinds: Set<string>;
  messages: string[];
}

/** Codes, adapter kinds and messages found on the error and its causes. */
function factsOf(err: unknown): Facts {
  const facts: Facts = { codes: new Set(), kinds: new Set(), messages: [] };
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
    visit(o.cause, depth + 1);
    visit(o.meta, depth + 1);
    visit(o.driverAdapterError, depth + 1);
    if (Array.isArray(o.errors)) for (const e of o.errors) visit(e, depth + 1);
  };
  visit(err, 0);
  // Prisma's message names the SQLSTATE of a failed raw query ("Code: `40P01`").
  for (const m of facts.messages)
    for (const hit of m.matchAll(/Code: `(\w{5})`/g)) facts.codes.add(hit[1]!);
  return facts;
}

/** A serialization failure (40001) or a deadlock (40P01): safe to retry the whole transaction. */
export function isTransientConflict(err: unknown): boolean {
  const { codes } = factsOf(err);
  for (const c of codes) if (CONFLICT_CODES.has(c)) return true;
  return false;
}

/** The write was refused by the lease fence: the writer no longer leads. */
export function isFencedOut(err: unknown): boolean {
  return factsOf(err).codes.has(FENCED_SQLSTATE);
}

/**
 * PostgreSQL cannot be reached, or dropped the connection (down, restarting,
 * out of connections): an outage to report as 503 and retry later, not a
 * bug in the request.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const facts = factsOf(err);
  for (const c of facts.codes) if (UNAVAILABLE_CODES.has(c) || c.startsWith("08")) return true;
  for (const k of facts.kinds) if (UNAVAILABLE_KINDS.has(k)) return true;
  return facts.messages.some((m) => UNAVAILABLE_WORDS.test(m));
}
