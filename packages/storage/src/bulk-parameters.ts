/**
 * Large JSON documents as query parameters, past Prisma's parameter round
 * trip. Prisma serialises a raw query's parameters to JSON and parses them
 * back before its driver adapter sees them; for the task writer's documents
 * (megabytes per transaction on a busy cluster) that trip cost a fifth of
 * the scheduler's CPU: JSON.parse reads a long string at ~200 MB/s, escaped
 * or not. So a bulk document travels through Prisma as a short token, and
 * the pool's clients swap the token for the document's bytes on the way to
 * PostgreSQL (pg sends a Buffer in binary, and `json`'s binary form is its
 * text).
 *
 * A token starts with NUL, which no PostgreSQL text value can hold, so no
 * real parameter is ever taken for one; a token whose document is gone (it
 * cannot happen outside `withBulkJson`) reaches PostgreSQL as text and fails
 * loudly on that NUL.
 */
import type pg from "pg";
import { Prisma } from "./generated/prisma/client.ts";

const TOKEN_PREFIX = "\u0000bulk-json:";
const documents = new Map<string, Buffer>();
let nextToken = 0;

/**
 * Runs `query` with each document given as a `json` expression to put in a
 * raw query; the documents are held only while it runs.
 */
export async function withBulkJson<T, const D extends readonly unknown[]>(
  docs: D,
  query: (params: { [K in keyof D]: Prisma.Sql }) => Promise<T>,
): Promise<T> {
  const tokens = docs.map((doc) => {
    const token = `${TOKEN_PREFIX}${nextToken++}`;
    documents.set(token, Buffer.from(JSON.stringify(doc)));
    return token;
  });
  try {
    const params = tokens.map((token) => Prisma.sql`${token}::json`);
    return await query(params as { [K in keyof D]: Prisma.Sql });
  } finally {
    for (const token of tokens) documents.delete(token);
  }
}

/** Makes a pool's clients swap bulk tokens for their documents (see the file comment). */
export function swapBulkParameters(pool: pg.Pool): void {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // The adapter always passes one config object ({ text, values, ... }).
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) =>
      query(withDocuments(config), ...rest);
  });
}

function withDocuments(config: unknown): unknown {
  if (typeof config !== "object" || config === null || !("values" in config)) return config;
  const values = (config as { values?: unknown }).values;
  if (!Array.isArray(values) || !values.some(isToken)) return config;
  return {
    ...config,
    values: values.map((v) => (isToken(v) ? (documents.get(v) ?? v) : v)),
  };
}

const isToken = (v: unknown): v is string => typeof v === "string" && v.startsWith(TOKEN_PREFIX);
