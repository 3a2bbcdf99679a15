/**
 * The part of the Mesos v1 operator HTTP API (`POST /api/v1` on the master,
 * include/mesos/v1/master/master.proto) that schedulers use: the agent list
 * with each agent's total resources (Peloton's host manager loads its host
 * map this way), and the operator's way to mark an agent gone for good.
 */
import type { AgentID, Attribute, Resource, TimeInfo } from "./messages.ts";

export interface AgentInfo {
  hostname: string;
  /** Default 5051. */
  port?: number;
  resources?: Resource[];
  attributes?: Attribute[];
  id?: AgentID;
}

export interface OperatorAgent {
  agent_info: AgentInfo;
  active: boolean;
  deactivated?: boolean;
  version?: string;
  /** libprocess pid: `slave(1)@<ip>:<port>`. */
  pid?: string;
  registered_time?: TimeInfo;
  reregistered_time?: TimeInfo;
  total_resources?: Resource[];
  allocated_resources?: Resource[];
  offered_resources?: Resource[];
}

export type OperatorCall =
  | { type: "GET_HEALTH" }
  | { type: "GET_AGENTS" }
  | { type: "MARK_AGENT_GONE"; mark_agent_gone: { agent_id: AgentID } };

export type OperatorResponse =
  | { type: "GET_HEALTH"; get_health: { healthy: boolean } }
  | {
      type: "GET_AGENTS";
      get_agents: { agents?: OperatorAgent[]; recovered_agents?: AgentInfo[] };
    };
