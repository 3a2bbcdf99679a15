/**
 * Process identity from /proc (Linux), as a recovering Mesos agent checks
 * its executors: a pid alone may have been reused by another process since
 * it was recorded; the pid together with its start time (field 22 of
 * /proc/<pid>/stat, clock ticks since boot) and the boot id does not.
 */
import { readFileSync } from "node:fs";

export interface ProcStat {
  /** R, S, D, Z (zombie: exited, not yet reaped), T, ... */
  state: string;
  startTime: string;
}

export function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19];
  if (state === undefined || startTime === undefined) return undefined;
  return { state, startTime };
}

/** The process recorded as (`pid`, `startTime`) still runs (a zombie has ended). */
export function isRunning(pid: number, startTime: string | undefined): boolean {
  const stat = procStat(pid);
  if (stat === undefined || stat.state === "Z" || stat.state === "X") return false;
  return startTime === undefined || stat.startTime === startTime;
}

export function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return undefined;
  }
}
