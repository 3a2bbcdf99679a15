/**
 * The master's operator API, `POST /api/v1`, for the calls schedulers and
 * operators use against a cluster: GET_HEALTH, GET_AGENTS (what every
 * registered agent has in total, is allocated and offered) and
 * MARK_AGENT_GONE. Other operator calls are answered 400, naming the call,
 * rather than pretending.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OperatorAgent } from "../proto/operator.ts";
import { AGENT_PROCESS } from "./agent-endpoint.ts";
import { json, reply } from "./files-endpoint.ts";
import type { Master } from "./master.ts";

export async function serveOperator(
  master: Master,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== "POST") {
    req.resume();
    return reply(res, 405, `Expecting one of { 'POST' }, but received '${req.method}'`, {
      Allow: "POST",
    });
  }
  if (req.headers["content-type"] !== "application/json") {
    req.resume();
    return reply(
      res,
      415,
      "Expecting 'Content-Type' of application/json or application/x-protobuf",
    );
  }
  const body = await readSmallBody(req);
  let call: { type?: unknown; mark_agent_gone?: { agent_id?: { value?: unknown } } };
  try {
    call = JSON.parse(body) as typeof call;
  } catch (err) {
    return reply(res, 400, `Failed to parse body into JSON: ${(err as Error).message}`);
  }
  switch (call.type) {
    case "GET_HEALTH":
      return json(res, { type: "GET_HEALTH", get_health: { healthy: true } });
    case "GET_AGENTS":
      return json(res, {
        type: "GET_AGENTS",
        get_agents: { agents: operatorAgents(master), recovered_agents: [] },
      });
    case "MARK_AGENT_GONE": {
      const id = call.mark_agent_gone?.agent_id?.value;
      if (typeof id !== "string") {
        return reply(res, 400, "Expecting 'mark_agent_gone.agent_id' to be present");
      }
      if (!master.agents.has(id)) return reply(res, 400, `Agent '${id}' is not registered`);
      master.removeAgent(id, { gone: true });
      res.writeHead(200, { "Content-Length": "0" });
      res.end();
      return;
    }
    default:
      return reply(res, 400, `mesos-sim does not implement operator call ${String(call.type)}`);
  }
}

export function operatorAgents(master: Master): OperatorAgent[] {
  return [...master.agents.values()].map((agent) => {
    const { ip, port } = agent.url.address;
    const registered = { nanoseconds: agent.registeredAt * 1_000_000 };
    return {
      agent_info: {
        hostname: agent.hostname,
        port,
        resources: agent.total.toResources(),
        attributes: agent.attributes.map((a) => ({ ...a })),
        id: { value: agent.id },
      },
      active: true,
      deactivated: false,
      version: master.masterInfo().version,
      pid: `${AGENT_PROCESS}@${ip}:${port}`,
      registered_time: registered,
      total_resources: agent.total.toResources(),
      allocated_resources: agent.used.toResources(),
      offered_resources: agent.offered.toResources(),
    };
  });
}

export function readSmallBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.once("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.once("error", reject);
  });
}
