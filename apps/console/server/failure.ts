/**
 * A start-up failure in one line. StartupErrors already say what to do; any
 * other error is a bug or an unexpected state, so the line carries what
 * identifies it (message, or code and cause when the message is empty: a
 * PostgreSQL unique violation can arrive with no message at all) and how to
 * see more.
 */
import { StartupError } from "@peloton/api/boot";

interface ErrorFacts {
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  detail?: unknown;
  constraint?: unknown;
  name?: unknown;
}

function firstLine(text: unknown): string {
  return typeof text === "string" ? (text.split("\n").find((l) => l.trim()) ?? "").trim() : "";
}

/** What the error says about itself, following `cause` when its own message is empty. */
function describe(err: unknown, depth = 0): string {
  if (err === null || typeof err !== "object") return firstLine(String(err)) || "unknown error";
  const e = err as ErrorFacts;
  const parts: string[] = [];
  const message = firstLine(e.message);
  if (message) parts.push(message);
  else if (typeof e.detail === "string" && e.detail) parts.push(firstLine(e.detail));
  else if (e.cause && depth < 3) parts.push(describe(e.cause, depth + 1));
  else if (typeof e.name === "string") parts.push(e.name);
  const facts = [
    typeof e.code === "string" || typeof e.code === "number" ? `code ${e.code}` : "",
    typeof e.constraint === "string" ? `constraint ${e.constraint}` : "",
  ].filter(Boolean);
  if (facts.length) parts.push(`(${facts.join(", ")})`);
  return parts.join(" ") || "unknown error";
}

export function describeFailure(err: unknown): string {
  if (err instanceof StartupError) return firstLine(err.message);
  return `start-up failed: ${describe(err)}; start again, and if it repeats run with PELOTON_DEBUG=1 to see where`;
}
