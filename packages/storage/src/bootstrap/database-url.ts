import { StartupError } from "./errors.ts";

/** A PostgreSQL server and database, as separate fields (see prisma-offline.md, pitfall 3). */
export interface PgConnection {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
}

/** Parses a postgres:// URL; a malformed one is a StartupError naming what is wrong. */
export function parseDatabaseUrl(url: string, setting = "DATABASE_URL"): PgConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError(
      `${setting} is not a valid URL: "${url}" (expected postgres://user@host:5432/db)`,
    );
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new StartupError(
      `${setting} must start with postgres:// or postgresql://, not "${parsed.protocol}//"`,
    );
  }
  if (!parsed.hostname) throw new StartupError(`${setting} has no host: "${url}"`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (!database) throw new StartupError(`${setting} names no database: "${url}" (add /<database>)`);
  if (!/^[A-Za-z0-9_-]+$/.test(database)) {
    throw new StartupError(
      `${setting} database name "${database}" may use only letters, digits, _ and -`,
    );
  }
  const port = parsed.port ? Number(parsed.port) : 5432;
  const conn: PgConnection = {
    host: parsed.hostname.replace(/^\[|\]$/g, ""),
    port,
    user: decodeURIComponent(parsed.username || "postgres"),
    database,
  };
  if (parsed.password) conn.password = decodeURIComponent(parsed.password);
  return conn;
}

export function formatDatabaseUrl(c: PgConnection): string {
  const auth = c.password
    ? `${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}`
    : encodeURIComponent(c.user);
  return `postgres://${auth}@${c.host}:${c.port}/${c.database}`;
}

/** host:port/database, for messages (never the password). */
export function describeConnection(c: PgConnection): string {
  return `${c.host}:${c.port}/${c.database}`;
}
