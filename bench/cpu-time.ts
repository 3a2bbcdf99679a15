/**
 * CPU time of the processes a benchmark drives, read from /proc (Linux): a
 * figure to set beside a throughput, to tell a pipeline that waits from one
 * the machine's cores cannot run faster. Elsewhere every reading is null.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Linux reports utime and stime in clock ticks of 1/100 s on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

function ticksOf(pid: number): { comm: string; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces; the fields follow the last ')'.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    return { comm, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** CPU seconds one process has used so far, or null when it cannot be read. */
export function processCpuSeconds(pid: number): number | null {
  const t = ticksOf(pid);
  return t === null ? null : t.ticks / TICKS_PER_SECOND;
}

/**
 * CPU seconds used so far by the processes named `comm` (e.g. "postgres": a
 * local server's backends; one that exits between two readings is not
 * counted), or null without /proc.
 */
export function commandCpuSeconds(comm: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  let ticks = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const t = ticksOf(Number(entry));
    if (t !== null && t.comm === comm) ticks += t.ticks;
  }
  return ticks / TICKS_PER_SECOND;
}
