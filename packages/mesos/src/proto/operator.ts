/**
 * The part of the Mesos v1 operator HTTP API (`POST /api/v1` on the master,
 * include/mesos/v1/master/master.proto) that schedulers use: the agent list
 * with each agent's total resources (Peloton's host manager loads its host
 * map this way), the operator's way to mark an agent gone for good, and the
 * maintenance calls (include/mesos/v1/maintenance/maintenance.proto: a
 * schedule of windows of machines, each machine DRAINING once scheduled and
 * DOWN once its maintenance started; Peloton's host drainer drives them).
 */
import type { AgentID, Attribute, Resource, TimeInfo, Unavailability } from "./messages.ts";

/** A machine: its hostname and/or IP (Mesos matches an agent on both). */
export interface MachineID {
  hostname?: string;
  ip?: string;
}

/** Machines going into maintenance in the same `unavailability`. */
export interface MaintenanceWindow {
  machine_ids: MachineID[];
  unavailability: Unavailability;
}

export interface MaintenanceSchedule {
  windows?: MaintenanceWindow[];
}

/** The machines in maintenance: DRAINING (scheduled) and DOWN (started). */
export interface MaintenanceClusterStatus {
  draining_machines?: { id: MachineID; statuses?: unknown[] }[];
  down_machines?: MachineID[];
}

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
  | { type: "MARK_AGENT_GONE"; mark_agent_gone: { agent_id: AgentID } }
  | { type: "GET_MAINTENANCE_SCHEDULE" }
  | { type: "GET_MAINTENANCE_STATUS" }
  | {
      type: "UPDATE_MAINTENANCE_SCHEDULE";
      update_maintenance_schedule: { schedule: MaintenanceSchedule };
    }
  | { type: "START_MAINTENANCE"; start_maintenance: { machines: MachineID[] } }
  | { type: "STOP_MAINTENANCE"; stop_maintenance: { machines: MachineID[] } };

export type OperatorResponse =
  | { type: "GET_HEALTH"; get_health: { healthy: boolean } }
  | {
      type: "GET_AGENTS";
      get_agents: { agents?: OperatorAgent[]; recovered_agents?: AgentInfo[] };
    }
  | {
      type: "GET_MAINTENANCE_SCHEDULE";
      get_maintenance_schedule: { schedule: MaintenanceSchedule };
    }
  | {
      type: "GET_MAINTENANCE_STATUS";
      get_maintenance_status: { status: MaintenanceClusterStatus };
    };
