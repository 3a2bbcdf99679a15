/**
 * Large query parameters handed to the `pg` driver directly, past Prisma's
 * parameter round trip. Prisma serialises a raw query's parameters to JSON
 * and parses them back before its driver adapter sees them; for the task
 * writer's batches (thousands of rows per transaction on a busy cluster)
 * that trip cost a fifth of the scheduler's CPU. So such a parameter travels
 * through Prisma as a short token, and the pool's clients swap the token for
 * the value on the way to PostgreSQL; `pg` encodes it as it does any value
 * (an array as an array literal, a Buffer in binary).
 *
 * A token starts with NUL, which no PostgreSQL text value can hold, so no
 * real parameter is ever taken for one; a token whose value is gone (it
 * cannot happen outside `withDirectParameters`) reaches PostgreSQL as text
 * and fails loudly on that NUL.
 */
import type pg from "pg";
import { type ArrayElement, arrayLiteral } from "./array-literal.ts";
import { Prisma } from "./generated/prisma/client.ts";

const TOKEN_PREFIX = "\u0000direct-parameter:";
const held = new Map<string, unknown>();
let nextToken = 0;

/**
 * Runs `query` with each value as a placeholder to put in a raw query (cast
 * it there: `${p}::uuid[]`); the values are held only while it runs.
 */
export async function withDirectParameters<T, const V extends readonly unknown[]>(
  values: V,
  query: (params: { [K in keyof V]: Prisma.Sql }) => Promise<T>,
): Promise<T> {
  const tokens = values.map((value) => {
    const token = `${TOKEN_PREFIX}${nextToken++}`;
    held.set(token, value);
    return token;
  });
  try {
    const params = tokens.map((token) => Prisma.sql`${token}`);
    return await query(params as { [K in keyof V]: Prisma.Sql });
  } finally {
    for (const token of tokens) held.delete(token);
  }
}

/** Makes a pool's clients swap tokens for their values (see the file comment). */
export function swapDirectParameters(pool: pg.Pool): void {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // The adapter always passes one config object ({ text, values, ... }).
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) =>
      query(withValues(config), ...rest);
  });
}

function withValues(config: unknown): unknown {
  if (typeof config !== "object" || config === null || !("values" in config)) return config;
  const values = (config as { values?: unknown }).values;
  if (!Array.isArray(values) || !values.some(isToken)) return config;
  return { ...config, values: values.map((v) => (isToken(v) && held.has(v) ? held.get(v) : v)) };
}

const isToken = (v: unknown): v is string => typeof v === "string" && v.startsWith(TOKEN_PREFIX);

/**
 * `withDirectParameters` for arrays, each handed to PostgreSQL as the literal
 * `arrayLiteral` writes (cast it in the query: `${p}::uuid[]`). For the hot
 * paths' big arrays: past Prisma's round trip, and cheaper than pg's encoder.
 */
export function withArrayParameters<T, const V extends readonly (readonly ArrayElement[])[]>(
  arrays: V,
  query: (params: { [K in keyof V]: Prisma.Sql }) => Promise<T>,
): Promise<T> {
  const literals = arrays.map(arrayLiteral) as { [K in keyof V]: string };
  return withDirectParameters(
    literals,
    query as (params: { [K in keyof typeof literals]: Prisma.Sql }) => Promise<T>,
  );
}
