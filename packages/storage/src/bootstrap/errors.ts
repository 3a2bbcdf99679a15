/**
 * A start-up failure that the launcher prints as one line and exits on. The
 * message names the problem (which setting, which server) without a stack trace.
 */
export class StartupError extends Error {
  override readonly name = "StartupError";
}

/** Turns a pg/network error into words that name the server and the cause. */
export function describeConnectionError(err: unknown, where: string): string {
  const e = err as { code?: string; message?: string };
  switch (e.code) {
    case "ECONNREFUSED":
      return `cannot reach PostgreSQL at ${where}: connection refused (is the server running?)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot reach PostgreSQL at ${where}: unknown host`;
    case "ETIMEDOUT":
      return `cannot reach PostgreSQL at ${where}: connection timed out`;
    case "28P01":
    case "28000":
      return `PostgreSQL at ${where} refused the login: ${e.message ?? "authentication failed"}`;
    case "3D000":
      return `PostgreSQL at ${where}: ${e.message ?? "database does not exist"}`;
    default:
      return `PostgreSQL at ${where}: ${e.message ?? String(err)}`;
  }
}
