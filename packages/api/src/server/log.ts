/**
 * The server process's logger (pino, as the scheduler's: readable lines on a
 * terminal, JSON elsewhere; PELOTON_LOG_LEVEL). Created on first use, kept on
 * globalThis so that Next's dev server re-evaluating modules makes no second one.
 */
import { createLogger, type Logger } from "@peloton/scheduler";

const holder = globalThis as unknown as { __pelotonServerLog?: Logger };

export function serverLog(): Logger {
  holder.__pelotonServerLog ??= createLogger();
  return holder.__pelotonServerLog;
}
