/**
 * A start-up failure in one line. StartupErrors already say what to do; any
 * other error is a bug or an unexpected state, so the line carries what
 * identifies it (message, or code and cause when the message is empty: a
 * PostgreSQL unique violation can arrive with no message at all) and how to
 * see more.
 */

interface ErrorFacts {
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  detail?: unknown;
  constraint?: unknown;
  name?: unknown;
  /** Prisma's driver adapter: the database's own code and words. */
  originalCode?: unknown;
  originalMessage?: unknown;
}

/**
 * The line that says what went wrong: the first non-empty one, skipping
 * lead-ins that end in ":" (Prisma's messages start with an empty line and
 * "Invalid `prisma.x.create()` invocation:" before the cause).
 */
function mainLine(text: unknown): string {
  if (typeof text !== "string") return "";
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => !l.endsWith(":")) ?? lines[0] ?? "";
}

/** What the error says about itself, following `cause` when its own message is empty. */
function describe(err: unknown, depth = 0): string {
  if (err === null || typeof err !== "object") return mainLine(String(err)) || "unknown error";
  const e = err as ErrorFacts;
  const parts: string[] = [];
  const message = mainLine(e.message);
  if (message) parts.push(message);
  else if (typeof e.originalMessage === "string" && e.originalMessage)
    parts.push(mainLine(e.originalMessage));
  else if (typeof e.detail === "string" && e.detail) parts.push(mainLine(e.detail));
  else if (e.cause && depth < 3) parts.push(describe(e.cause, depth + 1));
  else if (typeof e.name === "string") parts.push(e.name);
  const code = e.code ?? e.originalCode;
  const facts = [
    typeof code === "string" || typeof code === "number" ? `code ${code}` : "",
    typeof e.constraint === "string" ? `constraint ${e.constraint}` : "",
  ].filter(Boolean);
  if (facts.length) parts.push(`(${facts.join(", ")})`);
  // "fetch failed" and the like: the cause says why.
  if (message && e.cause && typeof e.cause === "object" && depth < 3)
    parts.push(`← ${describe(e.cause, depth + 1)}`);
  return parts.join(" ") || "unknown error";
}

/** StartupError by name: this file stays free of the start-up modules (cheap to test). */
export function isStartupError(err: unknown): boolean {
  return err instanceof Error && err.name === "StartupError";
}

/** `phase`: whether the console was already serving when it happened. */
export function describeFailure(err: unknown, phase: "start-up" | "running" = "start-up"): string {
  if (isStartupError(err)) return mainLine((err as Error).message);
  const what = phase === "start-up" ? "start-up failed" : "stopped after an unexpected error";
  return `${what}: ${describe(err)}; start again, and if it repeats run with PELOTON_DEBUG=1 to see where`;
}
