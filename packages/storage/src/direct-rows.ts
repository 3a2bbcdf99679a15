/**
 * Big reads on the `pg` pool under the Prisma client, past Prisma's
 * raw-result mapping. For a page of 1,000 tasks (35 columns) `$queryRaw`
 * spent 22 ms of CPU: the adapter turns each value into its own form
 * (timestamps normalised to strings), then the client turns that into the
 * JavaScript value. Here the same page costs ~15 ms, most of it `pg`'s own
 * protocol parsing. The console's task tables and Peloton's TaskManager.List
 * read through it.
 *
 * The values are the ones `$queryRaw` gives for the same query: timestamptz
 * a Date, int2/int4 and float4/float8 a number, int8 a bigint, bool, json
 * and jsonb parsed, text as it is. A column of any other type is refused
 * (cast it in the query), so a new column cannot come back in a second form.
 * In a transaction the query goes through Prisma (a transaction's client
 * holds its own connection), with the same values.
 */
import pg from "pg";
import type { Prisma, PrismaClient } from "./generated/prisma/client.ts";
import type { DbOrTx } from "./tx.ts";

/** The pool under each client `createDb` made. */
const pools = new WeakMap<PrismaClient, pg.Pool>();

export function registerDirectPool(db: PrismaClient, pool: pg.Pool): void {
  pools.set(db, pool);
}

export interface DirectRowsOptions {
  /**
   * A name to prepare the query under, once per connection: PostgreSQL then
   * skips parsing and planning it on every later call. For the API's
   * single-row lookups by key, whose text never changes (the name must
   * always stand for the same text) and whose plan is the same whatever the
   * key; not for reads whose best plan depends on the values, which a
   * prepared statement's generic plan would fix once for all.
   */
  statement?: string;
}

/** `query`'s rows as objects keyed by column name, with `$queryRaw`'s values. */
export async function directRows<Row>(
  db: DbOrTx,
  query: Prisma.Sql,
  options: DirectRowsOptions = {},
): Promise<Row[]> {
  const pool = pools.get(db as PrismaClient);
  if (!pool) return (db as PrismaClient).$queryRaw<Row[]>(query);
  const result = await pool.query<unknown[]>({
    text: query.text,
    ...(options.statement ? { name: options.statement } : {}),
    values: query.values,
    rowMode: "array",
    types: PARSERS,
  });
  const unknown = result.fields.find((f) => !PARSE.has(f.dataTypeID));
  if (unknown)
    throw new Error(
      `directRows: column "${unknown.name}" is of type oid ${unknown.dataTypeID}, which has no parser here; cast it`,
    );
  const names = result.fields.map((f) => f.name);
  // Every row a copy of one object with the columns as keys, so all rows share
  // one shape and each assignment overwrites a known property (keys added one
  // by one would leave 35-column rows in V8's slow dictionary form).
  const shape = Object.fromEntries(names.map((name) => [name, null]));
  const rows = new Array<Row>(result.rows.length);
  for (let r = 0; r < result.rows.length; r++) {
    const values = result.rows[r] as unknown[];
    const row: Record<string, unknown> = { ...shape };
    for (let c = 0; c < names.length; c++) row[names[c] as string] = values[c];
    rows[r] = row as Row;
  }
  return rows;
}

const OID = {
  bool: 16,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  json: 114,
  float4: 700,
  float8: 701,
  varchar: 1043,
  timestamptz: 1184,
  jsonb: 3802,
} as const;

const asIs = (text: string) => text;
const PARSE: ReadonlyMap<number, (text: string) => unknown> = new Map<
  number,
  (text: string) => unknown
>([
  [OID.bool, (text) => text === "t"],
  [OID.int8, (text) => BigInt(text)],
  [OID.int2, Number],
  [OID.int4, Number],
  [OID.text, asIs],
  [OID.varchar, asIs],
  [OID.json, JSON.parse],
  [OID.jsonb, JSON.parse],
  [OID.float4, Number],
  [OID.float8, Number],
  [OID.timestamptz, timestamptz],
]);

/**
 * An unknown type's text is kept as it is until the query ends, and the
 * query is refused then: throwing here, inside pg's socket handler, would
 * leave the query waiting forever.
 */
const PARSERS = {
  getTypeParser: (oid: number) => PARSE.get(oid) ?? asIs,
};

/** The two digits at `at` as a number, or NaN when either is not a digit (NaN then carries to the end). */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : Number.NaN;
}

/** pg's own parser, for what PostgreSQL's ISO output with a year past 99 does not cover. */
function parsedByPg(text: string): Date {
  // pg reads ±infinity as a number; $queryRaw gives an invalid Date.
  const parsed = pg.types.getTypeParser(OID.timestamptz)(text) as Date | number;
  return typeof parsed === "number" ? new Date(Number.NaN) : parsed;
}

/**
 * A timestamptz as a Date, read off PostgreSQL's ISO output
 * ("2026-11-29 09:52:09.123+00", the fraction and the offset's minutes
 * optional) character by character, checking each as it goes: no regular
 * expression and no string made on the way. A 1,000-task page reads
 * thousands of these: 0.13 µs each, where a regular expression and a
 * fraction cut out took 0.19 and pg's general parser takes 0.5.
 * Anything else (infinity, BC, a seconds offset, years 0-99, which Date.UTC
 * would read as 1900-1999) goes to pg's.
 */
export function timestamptz(text: string): Date {
  const n = text.length;
  if (
    n < 22 ||
    text.charCodeAt(4) !== 45 /* - */ ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 /* space */ ||
    text.charCodeAt(13) !== 58 /* : */ ||
    text.charCodeAt(16) !== 58
  )
    return parsedByPg(text);
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  if (!(year >= 100)) return parsedByPg(text);
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === 46 /* . */) {
    // Milliseconds: a Date holds no finer; microseconds are cut as pg's parser cuts them.
    let places = 0;
    for (at = 20; at < n; at++) {
      const digit = text.charCodeAt(at) - 48;
      if (digit < 0 || digit > 9) break;
      if (places < 3) ms = ms * 10 + digit;
      places++;
    }
    if (places === 0 || places > 6) return parsedByPg(text);
    for (; places < 3; places++) ms *= 10;
  }
  const sign = text.charCodeAt(at);
  let offsetMinutes: number;
  if (n === at + 3) offsetMinutes = twoDigits(text, at + 1) * 60;
  else if (n === at + 6 && text.charCodeAt(at + 3) === 58)
    offsetMinutes = twoDigits(text, at + 1) * 60 + twoDigits(text, at + 4);
  else return parsedByPg(text);
  if (sign === 45 /* - */) offsetMinutes = -offsetMinutes;
  else if (sign !== 43 /* + */) return parsedByPg(text);
  const utc = Date.UTC(
    year,
    twoDigits(text, 5) - 1,
    twoDigits(text, 8),
    twoDigits(text, 11),
    twoDigits(text, 14),
    twoDigits(text, 17),
    ms,
  );
  // A character that was not a digit made its part NaN, and the sum with it.
  const time = utc - offsetMinutes * 60_000;
  return Number.isNaN(time) ? parsedByPg(text) : new Date(time);
}
