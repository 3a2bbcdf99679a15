/**
 * Task sandboxes on disk, laid out like a Mesos agent's work directory so
 * paths look familiar:
 *   <root>/slaves/<agent>/frameworks/<fw>/executors/<executor>/runs/<container>[/tasks/<task>]
 * and persistent volumes under <root>/slaves/<agent>/volumes/roles/<role>/<id>.
 */
import { closeSync, mkdirSync, openSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

export interface SandboxIds {
  agentId: string;
  frameworkId: string;
  executorId: string;
  containerId: string;
  /** Set for a task of a LAUNCH_GROUP: each task has its own folder inside the executor's. */
  groupTaskId?: string;
}

export function sandboxDir(root: string, ids: SandboxIds): string {
  const run = join(
    root,
    "slaves",
    ids.agentId,
    "frameworks",
    ids.frameworkId,
    "executors",
    ids.executorId,
    "runs",
    ids.containerId,
  );
  return ids.groupTaskId !== undefined ? join(run, "tasks", ids.groupTaskId) : run;
}

export function volumeDir(
  root: string,
  agentId: string,
  role: string,
  persistenceId: string,
): string {
  return join(root, "slaves", agentId, "volumes", "roles", role, persistenceId);
}

/** Creates the sandbox with empty `stdout` and `stderr`, opened for the child to append. */
export function prepareSandbox(dir: string): { stdout: number; stderr: number } {
  mkdirSync(dir, { recursive: true });
  return { stdout: openSync(join(dir, "stdout"), "a"), stderr: openSync(join(dir, "stderr"), "a") };
}

export function closeFds(fds: { stdout: number; stderr: number }): void {
  closeSync(fds.stdout);
  closeSync(fds.stderr);
}

/** Makes a volume visible at `containerPath` inside the sandbox (a symlink: no containerizer here). */
export function mountVolume(sandbox: string, containerPath: string, volume: string): void {
  mkdirSync(volume, { recursive: true });
  const target = resolve(sandbox, containerPath);
  if (!isInside(sandbox, target)) return;
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(volume, target, "dir");
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function isInside(root: string, path: string): boolean {
  const r = resolve(root);
  const p = resolve(path);
  return p === r || p.startsWith(r + sep);
}
