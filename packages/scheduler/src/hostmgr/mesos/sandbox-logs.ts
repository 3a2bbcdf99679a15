/**
 * A run's stdout or stderr, read from its sandbox on the agent that ran it,
 * from any process (the API's): the run's cluster task id and host come from
 * its events, the agent's URL from the host row, the framework id from the
 * stored subscription. Works the same on a real Mesos agent and mesos-sim.
 * The Mesos adapter's `taskLog` and the Mesos log reader of any replica
 * (hostmgr/clusters.ts) both read through here.
 */
import { isTerminalTaskState } from "@peloton/engine";
import { MesosError, readSandboxFile } from "@peloton/mesos";
import type { ReadOnlyGateway, TaskRunRecord } from "@peloton/storage";
import type { TaskLogRefusal, TaskLogRequest, TaskLogResult } from "../task-logs.ts";
import { agentUrlFromString } from "./cluster-hosts.ts";
import { DEFAULT_FRAMEWORK_NAME } from "./framework.ts";

/** Finds the run: the newest one, or the one asked for (pod history). */
async function runOf(
  gateway: ReadOnlyGateway,
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

/** `frameworkName`: the key of the stored subscription (the adapter's framework name). */
export async function readTaskLog(
  gateway: ReadOnlyGateway,
  req: TaskLogRequest,
  frameworkName = DEFAULT_FRAMEWORK_NAME,
): Promise<TaskLogResult> {
  const found = await runOf(gateway, req);
  if (!found.ok) return found;
  const { run } = found;
  if (run.clusterTaskId === null || run.hostname === null)
    return { ok: false, refusal: { code: "NOT_LAUNCHED", run: run.runId, state: run.state } };
  const [framework, host] = await Promise.all([
    gateway.cluster.framework(frameworkName),
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
