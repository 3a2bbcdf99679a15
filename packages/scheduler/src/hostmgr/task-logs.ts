/**
 * A run's stdout or stderr, whatever the cluster: the request, the answer and
 * the refusals, and the reader that serves them. The host adapter implements
 * it (`HostAdapter.taskLog`), and so does each cluster kind's reader for
 * replicas that do not lead (hostmgr/clusters.ts): logs are read from what
 * storage holds (the run's host and cluster task id, the host's agent
 * address), not through the leader's live connection, so any replica serves them.
 */

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

/** Reads runs' logs. */
export interface TaskLogReader {
  taskLog(req: TaskLogRequest): Promise<TaskLogResult>;
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
