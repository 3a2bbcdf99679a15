/**
 * Structured logs for the scheduler's loops (pino). A terminal gets one
 * readable line per entry; anything else (files, log shippers) gets JSON.
 * PELOTON_LOG_LEVEL picks the level (default info).
 *
 * pino-pretty is a development dependency: an install without it (production,
 * `npm ci --omit=dev`) logs JSON on a terminal too rather than fail to start.
 */
import { createRequire } from "node:module";
import { type Environment, readEnvironment } from "@peloton/engine/environment";
import { pino } from "pino";

export type Logger = pino.Logger;

/**
 * Never logged (docs/identity.md): credentials in request headers, passwords
 * and tokens in any logged object, one level deep or at the top.
 */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
  "authorization",
  "cookie",
  "password",
  "*.password",
  "token",
  "*.token",
  "secret",
  "*.secret",
];
const redact = { paths: REDACTED_PATHS, censor: "[redacted]" };

export function createLogger(
  env: Pick<Environment, "PELOTON_LOG_LEVEL" | "PELOTON_LOG_FORMAT"> = readEnvironment(
    process.env,
    ["PELOTON_LOG_LEVEL", "PELOTON_LOG_FORMAT"],
  ),
): Logger {
  const level = env.PELOTON_LOG_LEVEL;
  if (process.stdout.isTTY && env.PELOTON_LOG_FORMAT !== "json" && prettyIsInstalled()) {
    return pino({
      level,
      redact,
      transport: {
        target: "pino-pretty",
        options: { translateTime: "HH:MM:ss.l", ignore: "pid,hostname", singleLine: true },
      },
    });
  }
  return pino({ level, redact });
}

function prettyIsInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("pino-pretty");
    return true;
  } catch {
    return false;
  }
}

/** A logger that drops everything: tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
