/**
 * The HTTP face of each simulated agent, a server of its own on its own
 * port, like a real agent (`http://<ip>:5051`, libprocess id `slave(1)`):
 * `/slave(1)/state` (also `/state`) describes what runs there, with each
 * executor's sandbox `directory`; `/files/read|browse|download` serve the
 * agent's sandboxes. Offers carry its URL, so anything that can reach a
 * real agent's endpoints reaches these the same way.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { isTerminalState } from "../proto/enums.ts";
import type { ResourceBag } from "../resources/bag.ts";
import type { SimAgent } from "./agent.ts";
import { json, reply, serveFiles } from "./files-endpoint.ts";
import type { Master } from "./master.ts";
import type { CompletedTask } from "./tasks.ts";

/** The libprocess id of an agent, as in its pid `slave(1)@ip:port` and its URL's path. */
export const AGENT_PROCESS = "slave(1)";

/**
 * Listens on `port` of `host` for agent `agentId` (a recovered agent asks for
 * its old port, so URLs stored by schedulers stay good), or on an ephemeral
 * port when none is asked or it is taken; resolves once listening.
 */
export async function startAgentServer(
  master: Master,
  agentId: string,
  host: string,
  port = 0,
): Promise<http.Server> {
  if (port !== 0) {
    try {
      return await listenAgent(master, agentId, host, port);
    } catch {
      // Taken by now: any port will do, as for a new agent.
    }
  }
  return listenAgent(master, agentId, host, 0);
}

function listenAgent(
  master: Master,
  agentId: string,
  host: string,
  port: number,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    serveAgent(master, agentId, req, res).catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

async function serveAgent(
  master: Master,
  agentId: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://agent.sim.local");
  const agent = master.agents.get(agentId);
  if (agent === undefined) return reply(res, 503, `Agent ${agentId} is not registered`);
  const root = join(master.config.sandboxRoot, "slaves", agent.id);
  switch (url.pathname) {
    case `/${AGENT_PROCESS}/state`:
    case `/${AGENT_PROCESS}/state.json`:
    case "/state":
    case "/state.json":
      return json(res, agentState(master, agent));
    case "/files/read":
    case "/files/read.json":
      return serveFiles(root, "read", url, req, res);
    case "/files/browse":
    case "/files/browse.json":
      return serveFiles(root, "browse", url, req, res);
    case "/files/download":
      return serveFiles(root, "download", url, req, res);
    default:
      return reply(res, 404, `No route for ${url.pathname}`);
  }
}

/** The agent's `/state` document: the fields tools read, in the agent's own JSON form. */
export function agentState(master: Master, agent: SimAgent): AgentStateJson {
  const frameworks: AgentStateJson["frameworks"] = [];
  for (const fw of master.frameworks.values()) {
    const executors = new Map<string, ExecutorJson>();
    const executorOf = (t: ExecutorSource): ExecutorJson => {
      let e = executors.get(t.executorId);
      if (e === undefined) {
        e = {
          id: t.executorId,
          name: "",
          source: "",
          container: t.containerId,
          directory: t.sandbox ?? "",
          resources: resourcesJson(t.resources),
          tasks: [],
          queued_tasks: [],
          completed_tasks: [],
        };
        executors.set(t.executorId, e);
      }
      return e;
    };
    for (const task of fw.tasks.values()) {
      if (task.agentId !== agent.id) continue;
      const e = executorOf(task);
      const row = taskJson(fw.id, agent.id, {
        taskId: task.taskId,
        name: task.info.name,
        state: task.state,
        resources: task.resources,
      });
      if (isTerminalState(task.state)) e.completed_tasks.push(row);
      else e.tasks.push(row);
    }
    const completed: ExecutorJson[] = [];
    for (const done of master.tasks.completedOn(agent.id)) {
      if (done.frameworkId !== fw.id) continue;
      completed.push({
        ...executorOfCompleted(done),
        completed_tasks: [taskJson(fw.id, agent.id, done)],
      });
    }
    if (executors.size === 0 && completed.length === 0) continue;
    frameworks.push({
      id: fw.id,
      name: fw.info.name,
      user: fw.info.user,
      executors: [...executors.values()],
      completed_executors: completed,
    });
  }
  return {
    id: agent.id,
    pid: `${AGENT_PROCESS}@${agent.url.address.ip}:${agent.url.address.port}`,
    hostname: agent.hostname,
    resources: resourcesJson(agent.total),
    attributes: Object.fromEntries(
      agent.attributes.map((a) => [a.name, a.type === "SCALAR" ? a.scalar?.value : a.text?.value]),
    ),
    frameworks,
    completed_frameworks: [],
  };
}

interface ExecutorSource {
  executorId: string;
  containerId: string;
  sandbox: string | undefined;
  resources: ResourceBag;
}

function executorOfCompleted(done: CompletedTask): Omit<ExecutorJson, "completed_tasks"> {
  return {
    id: done.executorId,
    name: "",
    source: "",
    container: done.containerId,
    directory: done.sandbox ?? "",
    resources: resourcesJson(done.resources),
    tasks: [],
    queued_tasks: [],
  };
}

function taskJson(
  frameworkId: string,
  agentId: string,
  t: { taskId: string; name: string; state: string; resources: ResourceBag },
): TaskJson {
  return {
    id: t.taskId,
    name: t.name,
    framework_id: frameworkId,
    // Command tasks: the executor id is the task id and the field is empty, as on a real agent.
    executor_id: "",
    slave_id: agentId,
    state: t.state,
    resources: resourcesJson(t.resources),
  };
}

/** Resources as the agent's JSON endpoints write them: `{"cpus": 4, "ports": "[31000-32000]"}`. */
function resourcesJson(bag: ResourceBag): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const r of bag.toResources()) {
    if (r.type === "SCALAR") out[r.name] = ((out[r.name] as number) ?? 0) + (r.scalar?.value ?? 0);
    else if (r.type === "RANGES") {
      out[r.name] = `[${(r.ranges?.range ?? []).map((x) => `${x.begin}-${x.end}`).join(", ")}]`;
    }
  }
  return out;
}

interface TaskJson {
  id: string;
  name: string;
  framework_id: string;
  executor_id: string;
  slave_id: string;
  state: string;
  resources: Record<string, number | string>;
}

interface ExecutorJson {
  id: string;
  name: string;
  source: string;
  container: string;
  directory: string;
  resources: Record<string, number | string>;
  tasks: TaskJson[];
  queued_tasks: TaskJson[];
  completed_tasks: TaskJson[];
}

export interface AgentStateJson {
  id: string;
  pid: string;
  hostname: string;
  resources: Record<string, number | string>;
  attributes: Record<string, string | number | undefined>;
  frameworks: Array<{
    id: string;
    name: string;
    user: string;
    executors: ExecutorJson[];
    completed_executors: ExecutorJson[];
  }>;
  completed_frameworks: unknown[];
}
