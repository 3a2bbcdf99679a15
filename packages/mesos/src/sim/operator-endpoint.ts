/**
 * The master's operator API, `POST /api/v1`, for the calls schedulers and
 * operators use against a cluster: GET_HEALTH, GET_AGENTS (what every
 * registered agent has in total, is allocated and offered),
 * MARK_AGENT_GONE, and maintenance (UPDATE_MAINTENANCE_SCHEDULE,
 * GET_MAINTENANCE_SCHEDULE, GET_MAINTENANCE_STATUS, START_MAINTENANCE,
 * STOP_MAINTENANCE: maintenance.ts). Calls that change something answer
 * 200 with an empty body, as Mesos does; refusals 400 with Mesos' sentence.
 * Other operator calls are answered 400, naming the call, rather than
 * pretending.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OperatorAgent } from "../proto/operator.ts";
import { AGENT_PROCESS } from "./agent-endpoint.ts";
import { json, reply } from "./files-endpoint.ts";
import type { MaintenanceOutcome } from "./maintenance.ts";
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
  let call: {
    type?: unknown;
    mark_agent_gone?: { agent_id?: { value?: unknown } };
    update_maintenance_schedule?: { schedule?: unknown };
    start_maintenance?: { machines?: unknown };
    stop_maintenance?: { machines?: unknown };
  };
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
    case "GET_MAINTENANCE_SCHEDULE":
      return json(res, {
        type: "GET_MAINTENANCE_SCHEDULE",
        get_maintenance_schedule: { schedule: master.maintenance.getSchedule() },
      });
    case "GET_MAINTENANCE_STATUS":
      return json(res, {
        type: "GET_MAINTENANCE_STATUS",
        get_maintenance_status: { status: master.maintenance.status() },
      });
    case "UPDATE_MAINTENANCE_SCHEDULE": {
      const schedule = call.update_maintenance_schedule?.schedule;
      if (schedule === undefined) {
        return reply(res, 400, "Expecting 'update_maintenance_schedule' to be present");
      }
      return answer(res, master.maintenance.update(schedule));
    }
    case "START_MAINTENANCE":
      if (call.start_maintenance === undefined) {
        return reply(res, 400, "Expecting 'start_maintenance' to be present");
      }
      return answer(res, master.startMaintenance(call.start_maintenance.machines));
    case "STOP_MAINTENANCE":
      if (call.stop_maintenance === undefined) {
        return reply(res, 400, "Expecting 'stop_maintenance' to be present");
      }
      return answer(res, master.stopMaintenance(call.stop_maintenance.machines));
    default:
      return reply(res, 400, `mesos-sim does not implement operator call ${String(call.type)}`);
  }
}

/** 200 with an empty body when done; 400 with the refusal otherwise. */
function answer(res: ServerResponse, outcome: MaintenanceOutcome): void {
  if (!outcome.ok) {
    reply(res, 400, outcome.message);
    return;
  }
  res.writeHead(200, { "Content-Length": "0" });
  res.end();
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
