/**
 * A run's stdout or stderr, read from its sandbox on the agent that ran it,
 * from any process (the API's): the run's cluster task id and host come from
 * its events, the agent's URL from the host row, the framework id from the
 * stored subscription. Works the same on a real Mesos agent and mesos-sim.
 */
import { isTerminalTaskState } from "@peloton/engine";
import { MesosError, readSandboxFile } from "@peloton/mesos";
import type { StorageGateway, TaskRunRecord } from "@peloton/storage";
import { agentUrlFromString } from "./cluster-hosts.ts";

export type LogFile = "stdout" | "stderr";

export interface TaskLogRequest {
  jobId: string;
  instance: number;
  /** The current run when absent. */
  run?: number | undefined;
  file: LogFile;
  /** Byte offset; -1 reads the last `length` bytes. */
  offset: number;
  length: number;
  /** The sandbox directory from an earlier read (skips the agent's state lookup). */
  directory?: string | undefined;
  frameworkName?: string;
}

export type TaskLogRefusal =
  | { code: "TASK_NOT_FOUND" }
  | { code: "RUN_NOT_FOUND"; run: number }
  | { code: "NOT_LAUNCHED"; run: number; state: string }
  | { code: "NO_FRAMEWORK" }
  | { code: "AGENT_UNKNOWN"; run: number; hostname: string | null }
  | { code: "SANDBOX_UNAVAILABLE"; run: number; hostname: string; message: string };

export interface TaskLogChunk {
  run: number;
  file: LogFile;
  data: string;
  /** Where `data` starts in the file. */
  offset: number;
  /** Where the next read starts. */
  nextOffset: number;
  /** The run has ended: once read to its end, the file will not grow. */
  finished: boolean;
  hostname: string;
  directory: string;
}

export type TaskLogResult =
  | { ok: true; chunk: TaskLogChunk }
  | { ok: false; refusal: TaskLogRefusal };

/** Finds the run: the newest one, or the one asked for (pod history). */
async function runOf(
  gateway: StorageGateway,
  req: TaskLogRequest,
): Promise<{ ok: true; run: TaskRunRecord } | { ok: false; refusal: TaskLogRefusal }> {
  const runs = await gateway.taskHistory.runs(req.jobId, req.instance);
  if (runs.length === 0) {
    const task = await gateway.taskReads.get(req.jobId, req.instance);
    return {
      ok: false,
      refusal: task
        ? { code: "RUN_NOT_FOUND", run: req.run ?? task.runId }
        : { code: "TASK_NOT_FOUND" },
    };
  }
  const run = req.run === undefined ? runs[0] : runs.find((r) => r.runId === req.run);
  if (!run) return { ok: false, refusal: { code: "RUN_NOT_FOUND", run: req.run ?? 0 } };
  return { ok: true, run };
}

export async function readTaskLog(
  gateway: StorageGateway,
  req: TaskLogRequest,
): Promise<TaskLogResult> {
  const found = await runOf(gateway, req);
  if (!found.ok) return found;
  const { run } = found;
  if (run.clusterTaskId === null || run.hostname === null)
    return { ok: false, refusal: { code: "NOT_LAUNCHED", run: run.runId, state: run.state } };
  const [framework, host] = await Promise.all([
    gateway.cluster.framework(req.frameworkName ?? "peloton"),
    gateway.hosts.get(run.hostname),
  ]);
  if (framework === null) return { ok: false, refusal: { code: "NO_FRAMEWORK" } };
  if (host?.agentUrl == null)
    return {
      ok: false,
      refusal: { code: "AGENT_UNKNOWN", run: run.runId, hostname: run.hostname },
    };
  const agent = agentUrlFromString(host.agentUrl);
  // The caller's directory only when it is this run's sandbox: it comes from the client.
  const given =
    req.directory && isSandboxOf(req.directory, framework.frameworkId, run.clusterTaskId)
      ? req.directory
      : undefined;
  const base = {
    agent,
    frameworkId: framework.frameworkId,
    taskId: run.clusterTaskId,
    file: req.file,
    ...(given ? { directory: given } : {}),
  };
  try {
    let offset = req.offset;
    let directory = given;
    if (offset < 0) {
      // Tail: the size first, then the last `length` bytes.
      const size = await readSandboxFile({ ...base, offset: -1 });
      directory = size.directory;
      offset = Math.max(0, size.offset - req.length);
    }
    const chunk = await readSandboxFile({
      ...base,
      ...(directory ? { directory } : {}),
      offset,
      length: req.length,
    });
    return {
      ok: true,
      chunk: {
        run: run.runId,
        file: req.file,
        data: chunk.data,
        offset: chunk.offset,
        nextOffset: chunk.offset + Buffer.byteLength(chunk.data),
        finished: isTerminalTaskState(run.state),
        hostname: run.hostname,
        directory: chunk.directory,
      },
    };
  } catch (err) {
    if (!(err instanceof MesosError)) throw err;
    const message =
      err.kind === "not_found"
        ? "the agent has no sandbox for this run (a simulated run writes no files, and agents remove old sandboxes)"
        : err.message;
    return {
      ok: false,
      refusal: { code: "SANDBOX_UNAVAILABLE", run: run.runId, hostname: run.hostname, message },
    };
  }
}

/**
 * Whether `directory` is the sandbox of task `taskId` of the framework, in
 * the agent's layout `.../frameworks/<fw>/executors/<executor>/runs/<container>`
 * (a command task's executor id is its task id; a pod's task has its own
 * `tasks/<task>` folder), with no `..` to climb out of it.
 */
export function isSandboxOf(directory: string, frameworkId: string, taskId: string): boolean {
  const parts = directory.split("/");
  if (parts.includes("..") || parts.includes(".")) return false;
  const fw = parts.indexOf("frameworks");
  if (fw < 0 || parts[fw + 1] !== frameworkId || parts[fw + 2] !== "executors") return false;
  const rest = parts.slice(fw + 3);
  const commandTask = rest.length === 3 && rest[0] === taskId && rest[1] === "runs";
  const podTask =
    rest.length === 5 && rest[1] === "runs" && rest[3] === "tasks" && rest[4] === taskId;
  return commandTask || podTask;
}

/** One sentence per refusal, for the API's error and the console. */
export function describeTaskLogRefusal(
  r: TaskLogRefusal,
  req: { jobId: string; instance: number },
): string {
  const task = `instance ${req.instance} of job ${req.jobId}`;
  switch (r.code) {
    case "TASK_NOT_FOUND":
      return `${task} does not exist`;
    case "RUN_NOT_FOUND":
      return `${task} has no run ${r.run}`;
    case "NOT_LAUNCHED":
      return `run ${r.run} of ${task} has not been launched yet (it is ${r.state}), so it has no logs`;
    case "NO_FRAMEWORK":
      return "the scheduler has not subscribed to the cluster yet, so no sandbox can be found";
    case "AGENT_UNKNOWN":
      return `run ${r.run} ran on ${r.hostname ?? "an unknown host"}, whose agent address is not known`;
    case "SANDBOX_UNAVAILABLE":
      return `run ${r.run}'s sandbox on ${r.hostname} cannot be read: ${r.message}`;
  }
}
