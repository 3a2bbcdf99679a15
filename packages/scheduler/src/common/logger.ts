/**
 * Structured logs for the scheduler's loops (pino). A terminal gets one
 * readable line per entry; anything else (files, log shippers) gets JSON.
 * PELOTON_LOG_LEVEL picks the level (default info).
 */
import { pino } from "pino";

export type Logger = pino.Logger;

export function createLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  const level = env.PELOTON_LOG_LEVEL ?? "info";
  if (process.stdout.isTTY && env.PELOTON_LOG_FORMAT !== "json") {
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

/** A logger that drops everything: tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
