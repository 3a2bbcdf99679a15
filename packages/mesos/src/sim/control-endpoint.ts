/**
 * mesos-sim's own control API (no Mesos equivalent: real agents join by
 * starting up and leave by failing). Lets a test, a demo or an operator
 * change the simulated cluster while schedulers are subscribed:
 *
 *   GET    /sim/agents                 → [{id, hostname, ...}]
 *   POST   /sim/agents  <AgentSpec>    → {"id": "<agent id>"}   (agent file entry format)
 *   DELETE /sim/agents/<id>[?gone=1]   → the agent fails: tasks LOST/UNREACHABLE (or
 *                                         GONE_BY_OPERATOR with gone=1), FAILURE event
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseAgentFile } from "./cluster.ts";
import { json, reply } from "./files-endpoint.ts";
import type { Master } from "./master.ts";
import { readSmallBody } from "./operator-endpoint.ts";

export const CONTROL_PREFIX = "/sim/agents";

export async function serveControl(
  master: Master,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const id = decodeURIComponent(url.pathname.slice(CONTROL_PREFIX.length + 1));
  if (url.pathname === CONTROL_PREFIX && req.method === "GET") {
    return json(
      res,
      [...master.agents.values()].map((a) => ({
        id: a.id,
        hostname: a.hostname,
        total: a.total.toResources(),
        used: a.used.toResources(),
      })),
    );
  }
  if (url.pathname === CONTROL_PREFIX && req.method === "POST") {
    let specs: ReturnType<typeof parseAgentFile>;
    try {
      specs = parseAgentFile([JSON.parse(await readSmallBody(req))]);
    } catch (err) {
      return reply(res, 400, (err as Error).message);
    }
    const spec = specs[0];
    if (spec === undefined) return reply(res, 400, "agent file: expected one agent");
    const taken = [...master.agents.values()].some((a) => a.hostname === spec.hostname);
    if (taken) return reply(res, 409, `an agent with hostname ${spec.hostname} is registered`);
    try {
      return json(res, { id: await master.addAgent(spec) }, 201);
    } catch (err) {
      return reply(res, 409, (err as Error).message);
    }
  }
  if (id !== "" && req.method === "DELETE") {
    if (!master.agents.has(id)) return reply(res, 404, `Agent ${id} is not registered`);
    master.removeAgent(id, { gone: url.searchParams.get("gone") === "1" });
    res.writeHead(204);
    res.end();
    return;
  }
  req.resume();
  reply(res, 405, `${req.method} ${url.pathname} is not part of the sim's control API`);
}
