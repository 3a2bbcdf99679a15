/**
 * Requests to the served API as a careless user or an attacker sends them
 * (raw HTTP, any body), timed; and the database's fingerprint, to prove that
 * refused requests changed nothing.
 */
import pg from "pg";

export interface Answer {
  status: number;
  /** Round trip, as the client saw it (on a busy machine, mostly the client's own work). */
  ms: number;
  /** The server's own time on it (its Server-Timing header); NaN when it sent none. */
  serverMs: number;
  /** The tRPC error envelope's shape (first of a batch), when it is one. */
  error: {
    message: string;
    data?: {
      code?: string;
      httpStatus?: number;
      requestId?: string | null;
      issues?: { field: string | null; code: string; message: string; line?: number }[] | null;
    };
  } | null;
  text: string;
}

function errorOf(text: string): Answer["error"] {
  try {
    const body = JSON.parse(text) as unknown;
    const first = (Array.isArray(body) ? body[0] : body) as
      | { error?: { json?: unknown } }
      | undefined;
    return (first?.error?.json as Answer["error"]) ?? null;
  } catch {
    return null;
  }
}

/** A raw request to `${base}/api/trpc/${path}` (POST when `body` is given, as a mutation is sent). */
export async function call(
  base: string,
  path: string,
  options: { body?: string; query?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(`${base}/api/trpc/${path}${options.query ? `?${options.query}` : ""}`, {
      method: options.body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", ...options.headers },
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
  } catch (err) {
    // The server refused the body before reading it all and closed the connection mid-upload.
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? String(err);
    return { status: 0, ms: performance.now() - started, serverMs: 0, error: null, text: cause };
  }
  const text = await res.text();
  const timing = /dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "");
  return {
    status: res.status,
    ms: performance.now() - started,
    serverMs: timing ? Number(timing[1]) : Number.NaN,
    error: errorOf(text),
    text,
  };
}

/** A mutation with `input` (superjson's envelope without meta: `{json: input}`). */
export function mutate(base: string, path: string, input: unknown): Promise<Answer> {
  return call(base, path, { body: JSON.stringify({ json: input }) });
}

/** A query with `input` in the URL, as the tRPC client sends it. */
export function query(base: string, path: string, input?: unknown): Promise<Answer> {
  return call(
    base,
    path,
    input === undefined
      ? {}
      : { query: `input=${encodeURIComponent(JSON.stringify({ json: input }))}` },
  );
}

/**
 * Every table's row count and a checksum of its rows (md5 of the rows as
 * text, in a fixed order): equal fingerprints mean an unchanged database.
 */
export async function fingerprint(databaseUrl: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    const out: Record<string, string> = {};
    for (const { tablename } of rows) {
      const r = await client.query<{ n: string; sum: string | null }>(
        `SELECT count(*)::text AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS sum FROM "${tablename}" t`,
      );
      out[tablename] = `${r.rows[0]!.n}:${r.rows[0]!.sum ?? "-"}`;
    }
    return out;
  } finally {
    await client.end();
  }
}
