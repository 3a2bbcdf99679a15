/**
 * How a task's run starts and, after a restart of a checkpointing sim,
 * resumes: a simulated run, a plain child process (no checkpoint), or a
 * process under the sh executor whose pid is checkpointed around its spawn.
 */
import { join } from "node:path";
import type { CheckpointRecord, TaskRecord } from "./checkpoint/records.ts";
import { type RunCallbacks, startProcess, type TaskRun } from "./executor-process.ts";
import type { Master } from "./master.ts";
import type { SimFramework, SimTask } from "./model.ts";
import { mountVolume, sandboxDir, volumeDir } from "./sandbox.ts";
import { simulatedRunSpec, startSimulatedRun } from "./simulated-run.ts";
import { adoptProcess, readForkedPid, startSupervisedProcess } from "./supervised-process.ts";

type TaskSet = Extract<CheckpointRecord, { t: "task_update" }>["set"];

export function checkpointTask(master: Master, task: SimTask, set: TaskSet): void {
  master.checkpoint?.append({
    t: "task_update",
    frameworkId: task.frameworkId,
    taskId: task.taskId,
    set,
  });
}

/** Starts the run of a launched task (sets its sandbox). Throws when the process cannot start. */
export function startRun(
  master: Master,
  fw: SimFramework,
  task: SimTask,
  simulateAll: boolean,
  callbacks: RunCallbacks,
): TaskRun {
  const checkpoint = master.checkpoint;
  const spec = simulatedRunSpec(task.info, simulateAll);
  if (spec !== undefined) {
    if (checkpoint !== undefined) {
      task.runRecord = { kind: "simulated", ...spec, startedAt: Date.now() };
      checkpointTask(master, task, { run: task.runRecord });
    }
    return startSimulatedRun(spec, callbacks);
  }
  const root = master.config.sandboxRoot;
  const ids = {
    agentId: task.agentId,
    frameworkId: fw.id,
    executorId: task.executorId,
    containerId: task.containerId,
    ...(task.group !== undefined ? { groupTaskId: task.taskId } : {}),
  };
  const sandbox = sandboxDir(root, ids);
  task.sandbox = sandbox;
  const command = task.info.command ?? task.info.executor?.command ?? {};
  mountVolumes(task, sandbox, root);
  if (checkpoint === undefined) {
    return startProcess(command, sandbox, environment(fw, task), callbacks);
  }
  // On disk before the process exists, and its pid right after: no process goes unrecorded.
  const metaDir = sandboxDir(join(root, "meta"), ids);
  const runRecord: TaskRecord["run"] & { kind: "process" } = { kind: "process", metaDir };
  task.runRecord = runRecord;
  checkpointTask(master, task, { run: runRecord, sandbox });
  checkpoint.flush();
  return startSupervisedProcess(command, sandbox, metaDir, environment(fw, task), {
    ...callbacks,
    onSpawned: (pid, startTime) => {
      task.runRecord = { ...runRecord, pid, ...(startTime !== undefined ? { startTime } : {}) };
      checkpointTask(master, task, { run: task.runRecord });
      checkpoint.flush();
    },
  });
}

/**
 * The run of a task recovered from the checkpoint: a process still running
 * is adopted, one that ended while the sim was down is reported as it ended
 * (or `executor_terminated`), a simulated run resumes with the time it had
 * left. `sameBoot`: the machine has not rebooted since the checkpoint.
 */
export function resumeRun(
  rec: TaskRecord,
  sameBoot: boolean,
  callbacks: RunCallbacks,
): TaskRun | undefined {
  const r = rec.run;
  const ended = (message: string) =>
    queueMicrotask(() => callbacks.onExit({ kind: "executor_terminated", message }));
  if (r?.kind === "simulated") return startSimulatedRun(r, callbacks, Date.now() - r.startedAt);
  if (r?.kind !== "process") {
    ended("the task never started");
    return undefined;
  }
  const pid = r.pid ?? readForkedPid(r.metaDir);
  if (pid !== undefined && sameBoot) return adoptProcess(pid, r.startTime, r.metaDir, callbacks);
  ended(
    pid === undefined
      ? "the executor was never started (the sim stopped while launching it)"
      : "the machine rebooted while the agent was down",
  );
  return undefined;
}

function environment(fw: SimFramework, task: SimTask): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, {
    MESOS_SANDBOX: task.sandbox ?? "",
    MESOS_TASK_ID: task.taskId,
    MESOS_AGENT_ID: task.agentId,
    MESOS_FRAMEWORK_ID: fw.id,
    MESOS_EXECUTOR_ID: task.executorId,
    MESOS_CONTAINER_ID: task.containerId,
  });
  for (const v of task.info.command?.environment?.variables ?? []) {
    if (v.type !== "SECRET" && v.value !== undefined) env[v.name] = v.value;
  }
  return env;
}

function mountVolumes(task: SimTask, sandbox: string, root: string): void {
  for (const r of task.info.resources ?? []) {
    const id = r.disk?.persistence?.id;
    const path = r.disk?.volume?.container_path;
    if (id === undefined || path === undefined) continue;
    const role = r.reservations?.at(-1)?.role ?? r.role ?? "*";
    mountVolume(sandbox, path, volumeDir(root, task.agentId, role, id));
  }
}
