/**
 * Small process facts and a stop with escalation, for the embedded
 * PostgreSQL's supervision and for the launcher that reaps what a dead
 * launcher left behind. Linux's /proc gives a process's start time, so a
 * recorded pid is matched to the same process and never to a reused pid.
 */
import { readFileSync } from "node:fs";

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The process's start time in clock ticks since boot (field 22 of
 * /proc/<pid>/stat), or undefined without /proc or when it is gone.
 */
export function processStartTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = Number(fields[19]);
    return Number.isFinite(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** A process as recorded in a file: pid plus start time when the OS tells it. */
export interface ProcessRef {
  pid: number;
  startTime?: number | undefined;
}

export function processRef(pid: number): ProcessRef {
  return { pid, startTime: processStartTime(pid) };
}

/** Whether the recorded process still runs (the same one, not a reused pid). */
export function stillRunning(ref: ProcessRef): boolean {
  if (!processAlive(ref.pid)) return false;
  if (ref.startTime === undefined) return true;
  const now = processStartTime(ref.pid);
  return now === undefined || now === ref.startTime;
}

/** The process's command line (arguments joined by spaces), or "" without /proc. */
export function processCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the process is gone; false when it still runs after `ms`. */
export async function waitForExit(ref: ProcessRef, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (stillRunning(ref)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Sends each signal in turn, waiting its grace period for the process to
 * exit before the next. `group` signals the whole process group the process
 * leads (a server and the workers it forked). True once it is gone.
 */
export async function stopProcess(
  ref: ProcessRef,
  steps: readonly (readonly [NodeJS.Signals, number])[],
  opts: { group?: boolean } = {},
): Promise<boolean> {
  for (const [signal, graceMs] of steps) {
    if (!stillRunning(ref)) return true;
    try {
      process.kill(opts.group ? -ref.pid : ref.pid, signal);
    } catch {
      // Gone between the check and the signal, or not a group leader: try the pid alone.
      try {
        process.kill(ref.pid, signal);
      } catch {
        return !stillRunning(ref);
      }
    }
    if (await waitForExit(ref, graceMs)) return true;
  }
  return !stillRunning(ref);
}

/** PostgreSQL's fast shutdown, then immediate shutdown, then SIGKILL. */
export const POSTGRES_STOP: readonly (readonly [NodeJS.Signals, number])[] = [
  ["SIGINT", 15_000],
  ["SIGQUIT", 5_000],
  ["SIGKILL", 5_000],
];
