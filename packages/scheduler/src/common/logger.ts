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
      transport: {
        target: "pino-pretty",
        options: { translateTime: "HH:MM:ss.l", ignore: "pid,hostname", singleLine: true },
      },
    });
  }
  return pino({ level });
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
