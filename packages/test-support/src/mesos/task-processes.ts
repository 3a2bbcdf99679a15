/**
 * The OS processes of sim tasks, found as an operator would: by the
 * MESOS_* environment every task process carries (/proc/<pid>/environ).
 */
import { readdirSync, readFileSync } from "node:fs";

export interface TaskProcess {
  pid: number;
  /** argv joined by spaces. */
  cmdline: string;
  env: Map<string, string>;
}

function read(pid: number): TaskProcess | undefined {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
    if (!environ.includes("MESOS_TASK_ID=")) return undefined;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // A zombie has ended: it is no running process.
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return undefined;
    const env = new Map<string, string>();
    for (const kv of environ.split("\0")) {
      const i = kv.indexOf("=");
      if (i > 0) env.set(kv.slice(0, i), kv.slice(i + 1));
    }
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    return { pid, cmdline, env };
  } catch {
    return undefined;
  }
}

/** Every live process of a sim task whose sandbox lies under `root`. */
export function taskProcesses(root: string): TaskProcess[] {
  const out: TaskProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const p = read(Number(name));
    if (p?.env.get("MESOS_SANDBOX")?.startsWith(root)) out.push(p);
  }
  return out;
}

/** The processes of one task running `command` (e.g. "sleep 600"), not its executor shells. */
export function commandProcesses(root: string, taskId: string, command: string): TaskProcess[] {
  return taskProcesses(root).filter(
    (p) => p.env.get("MESOS_TASK_ID") === taskId && p.cmdline === command,
  );
}

/** SIGKILL to every task process under `root` (test clean-up). */
export function killTaskProcesses(root: string): void {
  for (const p of taskProcesses(root)) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}
