/**
 * Reading a task's sandbox files from any process, the way one does with a
 * real Mesos agent: find the task's executor `directory` in the agent's
 * `state` endpoint, then page through `<directory>/stdout` with the agent's
 * `/files/read?path=&offset=&length=`. Only the agent's URL (Offer.url,
 * kept with the host) and the framework and task ids are needed, so the
 * API can tail logs without asking the scheduler.
 *
 * Endpoints from an agent URL `{scheme, address: {ip, port}, path}`:
 *   state = <scheme>://<ip>:<port><path>/state          (path is "/slave(1)" on Mesos)
 *   files = <scheme>://<ip>:<port><path minus "/slave(N)">/files/read
 */

import { kindForStatus, MesosError } from "../client/errors.ts";
import type { URL as AgentUrl } from "../proto/messages.ts";

export interface SandboxFileRequest {
  /** The agent's URL as offers carry it. */
  agent: AgentUrl;
  frameworkId: string;
  taskId: string;
  /** A file inside the sandbox: "stdout" (default), "stderr", or a relative path. */
  file?: string;
  /** Byte offset; -1 asks only for the file's size (returned as `offset`). Default 0. */
  offset?: number;
  /** Bytes to read at most. Default: the agent's page size. */
  length?: number;
  /** The sandbox directory when already known (skips the state lookup). */
  directory?: string;
  timeoutMs?: number;
}

export interface SandboxFileChunk {
  data: string;
  /** Where `data` starts in the file (or the file's size for offset -1). */
  offset: number;
  /** Pass back as `directory` when reading on (tailing). */
  directory: string;
}

/** One read of a task's sandbox file. Errors are MesosErrors (not_found when the task or file is unknown). */
export async function readSandboxFile(req: SandboxFileRequest): Promise<SandboxFileChunk> {
  const file = req.file ?? "stdout";
  // A file of the sandbox, never a way out of it (the agent also refuses links leading out).
  if (file === "" || file.startsWith("/") || file.split("/").includes("..")) {
    throw new MesosError("bad_request", {
      callType: "files/read",
      masterMessage: `'${file}' is not a path inside the sandbox`,
    });
  }
  const directory =
    req.directory ?? (await findSandboxDirectory(req.agent, req.frameworkId, req.taskId, req));
  if (directory === undefined) {
    throw new MesosError("not_found", {
      callType: "files/read",
      masterMessage: `task ${req.taskId} of framework ${req.frameworkId} has no sandbox on agent ${agentBase(req.agent)}`,
    });
  }
  const url = new URL(`${agentBase(req.agent)}/files/read`);
  url.searchParams.set("path", `${directory}/${file}`);
  url.searchParams.set("offset", String(req.offset ?? 0));
  if (req.length !== undefined) url.searchParams.set("length", String(req.length));
  const body = (await getJson(url, "files/read", req.timeoutMs)) as {
    data?: unknown;
    offset?: unknown;
  };
  if (typeof body.data !== "string" || typeof body.offset !== "number") {
    throw new MesosError("protocol", {
      url: url.href,
      callType: "files/read",
      masterMessage: "answer without data and offset",
    });
  }
  return { data: body.data, offset: body.offset, directory };
}

/** The task's sandbox directory from the agent's state, running or completed; undefined if unknown. */
export async function findSandboxDirectory(
  agent: AgentUrl,
  frameworkId: string,
  taskId: string,
  opts: { timeoutMs?: number } = {},
): Promise<string | undefined> {
  const url = new URL(`${agentOrigin(agent)}${agent.path ?? ""}/state`);
  const state = (await getJson(url, "state", opts.timeoutMs)) as AgentState;
  const frameworks = [...(state.frameworks ?? []), ...(state.completed_frameworks ?? [])];
  for (const fw of frameworks) {
    if (fw.id !== frameworkId) continue;
    for (const e of [...(fw.executors ?? []), ...(fw.completed_executors ?? [])]) {
      const tasks = [...(e.tasks ?? []), ...(e.queued_tasks ?? []), ...(e.completed_tasks ?? [])];
      // Command tasks run under an executor whose id is the task's.
      if (e.id === taskId || tasks.some((t) => t.id === taskId)) return e.directory;
    }
  }
  return undefined;
}

interface AgentState {
  frameworks?: StateFramework[];
  completed_frameworks?: StateFramework[];
}
interface StateFramework {
  id: string;
  executors?: StateExecutor[];
  completed_executors?: StateExecutor[];
}
interface StateExecutor {
  id: string;
  directory: string;
  tasks?: { id: string }[];
  queued_tasks?: { id: string }[];
  completed_tasks?: { id: string }[];
}

function agentOrigin(agent: AgentUrl): string {
  const host = agent.address.ip ?? agent.address.hostname ?? "localhost";
  return `${agent.scheme || "http"}://${host}:${agent.address.port}`;
}

/** The agent's root: its origin plus any prefix before the libprocess id. */
function agentBase(agent: AgentUrl): string {
  const prefix = (agent.path ?? "").replace(/\/slave\(\d+\)\/?$/, "");
  return `${agentOrigin(agent)}${prefix}`;
}

async function getJson(url: URL, callType: string, timeoutMs = 10_000): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timeout = err instanceof Error && err.name === "TimeoutError";
    throw new MesosError(timeout ? "timeout" : "network", { url: url.href, callType, cause: err });
  }
  const text = await res.text();
  if (!res.ok) {
    throw new MesosError(kindForStatus(res.status), {
      url: url.href,
      callType,
      status: res.status,
      masterMessage: text.trim(),
    });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new MesosError("protocol", { url: url.href, callType, cause: err });
  }
}
