/**
 * Task processes that outlive mesos-sim (checkpointing), like tasks under a
 * Mesos command executor outlive their agent.
 *
 * A process that is not our child cannot be waited for, so each task runs
 * under a small /bin/sh executor that does the waiting: it records its pid,
 * starts the command in the background, waits for it and writes its exit
 * status to `<meta>/exit_status`. The executor leads the task's process
 * group (a kill still reaches everything), ignores the signals a kill
 * sends (the command gets them from the group signal and the executor
 * records how it ended), and exits with the command's status.
 *
 * A later mesos-sim adopts a recorded task by pid and start time, polls
 * /proc for its end and reads the exit status the executor left; none
 * means the executor itself was killed (`executor_terminated`).
 *
 * Exit statuses are shell statuses: 128+N reads as "terminated by signal
 * N", so a command that itself exits 130 is reported as SIGINT.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import type { CommandInfo } from "../proto/messages.ts";
import { isRunning, procStat } from "./checkpoint/proc.ts";
import {
  groupGone,
  type RunCallbacks,
  type RunOutcome,
  signalGroup,
  superviseChild,
  type TaskRun,
} from "./executor-process.ts";
import { closeFds, prepareSandbox } from "./sandbox.ts";

/**
 * $1 = meta dir, $2 = "shell" (then $3 is the command line) or "exec" (then
 * $3... is the program and its arguments). `trap` comes before `&`: the
 * background command starts with default signal handling.
 */
const EXECUTOR_SCRIPT = `meta=$1; mode=$2; shift 2
echo $$ > "$meta/forked.pid"
if [ "$mode" = exec ] && ! command -v "$1" >/dev/null 2>&1; then
  echo "launch_failed $1" > "$meta/exit_status"; exit 127
fi
trap : TERM INT HUP QUIT
if [ "$mode" = shell ]; then /bin/sh -c "$1" & else "$@" & fi
child=$!
while :; do
  wait "$child"; code=$?
  kill -0 "$child" 2>/dev/null || break
done
echo "$code" > "$meta/exit_status.tmp" && mv -f "$meta/exit_status.tmp" "$meta/exit_status"
exit "$code"`;

/** How often adopted processes are checked for their end (one timer for all). */
const ADOPTED_POLL_MS = 500;
const adoptedChecks = new Set<() => void>();
let adoptedTimer: NodeJS.Timeout | undefined;

function watch(check: () => void): void {
  adoptedChecks.add(check);
  if (adoptedTimer !== undefined) return;
  adoptedTimer = setInterval(() => {
    for (const c of [...adoptedChecks]) c();
  }, ADOPTED_POLL_MS);
  adoptedTimer.unref();
}

function unwatch(check: () => void): void {
  adoptedChecks.delete(check);
  if (adoptedChecks.size > 0 || adoptedTimer === undefined) return;
  clearInterval(adoptedTimer);
  adoptedTimer = undefined;
}

export interface SupervisedCallbacks extends RunCallbacks {
  /** Right after the spawn: the pid and start time to checkpoint. */
  onSpawned(pid: number, startTime: string | undefined): void;
}

export function startSupervisedProcess(
  command: CommandInfo,
  sandbox: string,
  metaDir: string,
  env: Record<string, string>,
  callbacks: SupervisedCallbacks,
): TaskRun {
  mkdirSync(metaDir, { recursive: true });
  const fds = prepareSandbox(sandbox);
  const shell = command.shell !== false;
  const value = command.value ?? "";
  // arguments[0] is argv[0]; the executor cannot set argv[0], so the program's name stands in.
  const argv = shell ? ["shell", value] : ["exec", value, ...(command.arguments ?? []).slice(1)];
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn("/bin/sh", ["-c", EXECUTOR_SCRIPT, "mesos-sim-executor", metaDir, ...argv], {
      cwd: sandbox,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", fds.stdout, fds.stderr],
      detached: true,
    });
  } finally {
    closeFds(fds);
  }
  if (child.pid !== undefined) callbacks.onSpawned(child.pid, procStat(child.pid)?.startTime);
  return superviseChild(child, callbacks, () => readExitStatus(metaDir));
}

/** The command's end as the executor recorded it; undefined if it did not. */
export function readExitStatus(metaDir: string): RunOutcome | undefined {
  let text: string;
  try {
    text = readFileSync(join(metaDir, "exit_status"), "utf8").trim();
  } catch {
    return undefined;
  }
  if (text.startsWith("launch_failed ")) {
    // What spawn says when the program is missing, as without the executor.
    return { kind: "launch_failed", message: `spawn ${text.slice(14)} ENOENT` };
  }
  if (!/^\d+$/.test(text)) return undefined;
  const code = Number(text);
  if (code > 128 && code <= 128 + 64) {
    const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
    return { kind: "signaled", signal: name ?? `signal ${code - 128}` };
  }
  return { kind: "exited", code };
}

/** The executor's pid as it wrote it (for a task whose pid the checkpoint lacks). */
export function readForkedPid(metaDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(metaDir, "forked.pid"), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Follows a task process started by an earlier mesos-sim. `onRunning` is
 * called on the next tick if it still runs; `onExit` once it has ended.
 */
export function adoptProcess(
  pid: number,
  startTime: string | undefined,
  metaDir: string,
  callbacks: RunCallbacks,
): TaskRun {
  let exited = false;
  let escalation: NodeJS.Timeout | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => {
    resolveDone = r;
  });
  const finish = (notify: boolean) => {
    if (exited) return;
    exited = true;
    unwatch(check);
    if (escalation !== undefined) clearTimeout(escalation);
    resolveDone();
    if (!notify) return;
    signalGroup(pid, "SIGKILL");
    callbacks.onExit(
      readExitStatus(metaDir) ?? {
        kind: "executor_terminated",
        message: "the executor ended without recording the command's exit status",
      },
    );
  };
  const check = () => {
    if (!isRunning(pid, startTime)) finish(true);
  };
  watch(check);
  queueMicrotask(() => {
    if (exited) return;
    if (isRunning(pid, startTime)) callbacks.onRunning();
    else finish(true);
  });
  return {
    kill(graceMs) {
      if (exited) return;
      signalGroup(pid, "SIGTERM");
      if (escalation !== undefined) clearTimeout(escalation);
      escalation = setTimeout(() => signalGroup(pid, "SIGKILL"), Math.max(0, graceMs));
    },
    async destroy() {
      if (!exited) signalGroup(pid, "SIGKILL");
      // Not our child: its end shows in /proc once its parent (init, or an earlier sim) reaps it.
      const deadline = Date.now() + 5_000;
      while (!exited && isRunning(pid, startTime) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      // SIGKILLed and given time: ended, whatever /proc still shows.
      finish(true);
      await groupGone(pid);
      return done;
    },
    detach() {
      finish(false);
    },
    pid,
  };
}
