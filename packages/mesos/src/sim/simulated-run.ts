/**
 * Simulated task runs, for clusters too large for real processes: no child,
 * no sandbox files; the task "runs" for a duration and "exits" with a code.
 *
 * Convention: the task's labels, else its `command.environment`, carry
 *   PELOTON_SIM_DURATION_MS  how long it runs (ms); presence makes the run simulated
 *   PELOTON_SIM_EXIT_CODE    its exit code (default 0: TASK_FINISHED, else TASK_FAILED)
 * An agent or sim started with `simulateTasks` simulates every task; one without a
 * duration then runs until killed.
 */
import type { TaskInfo } from "../proto/messages.ts";
import type { RunCallbacks, TaskRun } from "./executor-process.ts";

export const SIM_DURATION_KEY = "PELOTON_SIM_DURATION_MS";
export const SIM_EXIT_CODE_KEY = "PELOTON_SIM_EXIT_CODE";

export interface SimulatedRunSpec {
  /** undefined = runs until killed. */
  durationMs: number | undefined;
  exitCode: number;
}

function lookup(task: TaskInfo, key: string): string | undefined {
  const label = task.labels?.labels?.find((l) => l.key === key);
  if (label?.value !== undefined) return label.value;
  return task.command?.environment?.variables?.find((v) => v.name === key)?.value;
}

function nonNegative(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** How `task` is simulated, or undefined when it should run as a real process. */
export function simulatedRunSpec(
  task: TaskInfo,
  simulateAll: boolean,
): SimulatedRunSpec | undefined {
  const durationMs = nonNegative(lookup(task, SIM_DURATION_KEY));
  if (durationMs === undefined && !simulateAll) return undefined;
  const code = Number(lookup(task, SIM_EXIT_CODE_KEY) ?? "0");
  return { durationMs, exitCode: Number.isInteger(code) ? code : 1 };
}

/**
 * `elapsedMs`: how long the run has already lasted (a run re-adopted after a
 * restart of the sim goes on where it was).
 */
export function startSimulatedRun(
  spec: SimulatedRunSpec,
  callbacks: RunCallbacks,
  elapsedMs = 0,
): TaskRun {
  let exited = false;
  let timer: NodeJS.Timeout | undefined;
  const exit = (outcome: Parameters<RunCallbacks["onExit"]>[0]) => {
    if (exited) return;
    exited = true;
    if (timer !== undefined) clearTimeout(timer);
    callbacks.onExit(outcome);
  };
  // Running as soon as launched; the exit is always asynchronous, after the RUNNING update.
  queueMicrotask(() => {
    if (exited) return;
    callbacks.onRunning();
    if (spec.durationMs !== undefined) {
      timer = setTimeout(
        () => exit({ kind: "exited", code: spec.exitCode }),
        Math.max(0, spec.durationMs - elapsedMs),
      );
    }
  });
  return {
    // A simulated process honours SIGTERM at once.
    kill: () => exit({ kind: "signaled", signal: "SIGTERM" }),
    destroy: () => {
      exit({ kind: "signaled", signal: "SIGKILL" });
      return Promise.resolve();
    },
    // A simulated run lives in this process: it stops here and resumes in the next sim.
    detach: () => {
      exited = true;
      if (timer !== undefined) clearTimeout(timer);
    },
    pid: undefined,
  };
}
