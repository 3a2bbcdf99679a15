/**
 * Runs a task's command as a real child process (what the Mesos command
 * executor does, minus the container): `/bin/sh -c value` when `shell` is
 * true (the default), else `value` with `arguments` as argv. stdout and
 * stderr go to files in the sandbox. The child leads its own process group
 * so a kill reaches everything the shell started.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { CommandInfo } from "../proto/messages.ts";
import { closeFds, prepareSandbox } from "./sandbox.ts";

export type RunOutcome =
  | { kind: "exited"; code: number }
  | { kind: "signaled"; signal: string }
  | { kind: "launch_failed"; message: string }
  /** The executor (our wrapper) died without recording the command's exit status. */
  | { kind: "executor_terminated"; message: string };

export interface RunCallbacks {
  /** The task is running (the process exists). */
  onRunning(): void;
  onExit(outcome: RunOutcome): void;
}

/** A running task, real or simulated. */
export interface TaskRun {
  /** SIGTERM now, SIGKILL after `graceMs` if still alive. */
  kill(graceMs: number): void;
  /** SIGKILL at once (agent lost, sim stopped); resolves when the task has exited. */
  destroy(): Promise<void>;
  /**
   * The sim stops but the task keeps running (checkpointing): no callback
   * fires any more and nothing of the run keeps this process alive.
   */
  detach(): void;
  /** Leader of the task's process group; undefined for simulated runs. */
  readonly pid: number | undefined;
}

export function startProcess(
  command: CommandInfo,
  sandbox: string,
  env: Record<string, string>,
  callbacks: RunCallbacks,
): TaskRun {
  const fds = prepareSandbox(sandbox);
  const value = command.value ?? "";
  const shell = command.shell !== false;
  const args = command.arguments ?? [];
  let child: ReturnType<typeof spawn>;
  // A plain map: some type setups (Next's) declare required ProcessEnv keys.
  const childEnv = env as NodeJS.ProcessEnv;
  try {
    child = shell
      ? spawn("/bin/sh", ["-c", value], {
          cwd: sandbox,
          env: childEnv,
          stdio: ["ignore", fds.stdout, fds.stderr],
          detached: true,
        })
      : spawn(value, args.slice(1), {
          cwd: sandbox,
          env: childEnv,
          stdio: ["ignore", fds.stdout, fds.stderr],
          detached: true,
          ...(args[0] !== undefined ? { argv0: args[0] } : {}),
        });
  } finally {
    closeFds(fds);
  }

  return superviseChild(child, callbacks, () => undefined);
}

/**
 * Follows a spawned child: running at "spawn", its outcome at "exit"
 * (`outcomeOf` may read a better one than the exit event, see
 * supervised-process.ts), its group SIGKILLed once it ends.
 */
export function superviseChild(
  child: ChildProcess,
  callbacks: RunCallbacks,
  outcomeOf: () => RunOutcome | undefined,
): TaskRun {
  let exited = false;
  let detached = false;
  let escalation: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolveDone) => {
    child.once("spawn", () => {
      if (!detached) callbacks.onRunning();
    });
    child.once("error", (err) => {
      if (exited || detached) return;
      exited = true;
      callbacks.onExit({ kind: "launch_failed", message: err.message });
      resolveDone();
    });
    child.once("exit", (code, signal) => {
      if (exited) return;
      exited = true;
      if (escalation !== undefined) clearTimeout(escalation);
      resolveDone();
      // Detached: a later mesos-sim adopted the task and sees its end itself.
      if (detached) return;
      // Like a container being destroyed: nothing the task forked outlives it.
      signalGroup(child.pid, "SIGKILL");
      callbacks.onExit(
        outcomeOf() ??
          (signal !== null ? { kind: "signaled", signal } : { kind: "exited", code: code ?? 0 }),
      );
    });
  });

  return {
    kill(graceMs) {
      if (exited) return;
      signalGroup(child.pid, "SIGTERM");
      if (escalation !== undefined) clearTimeout(escalation);
      escalation = setTimeout(() => signalGroup(child.pid, "SIGKILL"), Math.max(0, graceMs));
    },
    async destroy() {
      if (!exited) signalGroup(child.pid, "SIGKILL");
      await done;
      await groupGone(child.pid);
    },
    detach() {
      detached = true;
      if (escalation !== undefined) clearTimeout(escalation);
      child.unref();
    },
    get pid() {
      return child.pid;
    },
  };
}

/**
 * Resolves once no process of the group is left (SIGKILLed members take a
 * moment to die and be reaped), or after `timeoutMs`.
 */
export async function groupGone(pid: number | undefined, timeoutMs = 2_000): Promise<void> {
  if (pid === undefined) return;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone (ESRCH): nothing to do.
  }
}
