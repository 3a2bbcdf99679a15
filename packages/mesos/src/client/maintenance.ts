/**
 * The master's maintenance calls (v1 operator API), one function each:
 * the schedule (read, replace), the machines' status, and starting and
 * stopping maintenance of machines. Refusals come back as MesosError with
 * the master's sentence (400).
 */
import type {
  MachineID,
  MaintenanceClusterStatus,
  MaintenanceSchedule,
} from "../proto/operator.ts";
import { MesosError } from "./errors.ts";
import { type OperatorOptions, operatorCall } from "./operator.ts";

export async function getMaintenanceSchedule(
  master: string,
  opts?: OperatorOptions,
): Promise<MaintenanceSchedule> {
  const answer = await operatorCall(master, { type: "GET_MAINTENANCE_SCHEDULE" }, opts);
  if (answer?.type !== "GET_MAINTENANCE_SCHEDULE") {
    throw new MesosError("protocol", {
      callType: "GET_MAINTENANCE_SCHEDULE",
      masterMessage: "GET_MAINTENANCE_SCHEDULE answered without get_maintenance_schedule",
    });
  }
  return answer.get_maintenance_schedule.schedule ?? {};
}

export async function getMaintenanceStatus(
  master: string,
  opts?: OperatorOptions,
): Promise<MaintenanceClusterStatus> {
  const answer = await operatorCall(master, { type: "GET_MAINTENANCE_STATUS" }, opts);
  if (answer?.type !== "GET_MAINTENANCE_STATUS") {
    throw new MesosError("protocol", {
      callType: "GET_MAINTENANCE_STATUS",
      masterMessage: "GET_MAINTENANCE_STATUS answered without get_maintenance_status",
    });
  }
  return answer.get_maintenance_status.status ?? {};
}

/** Replaces the whole schedule (Mesos has no call that adds one window). */
export async function updateMaintenanceSchedule(
  master: string,
  schedule: MaintenanceSchedule,
  opts?: OperatorOptions,
): Promise<void> {
  await operatorCall(
    master,
    { type: "UPDATE_MAINTENANCE_SCHEDULE", update_maintenance_schedule: { schedule } },
    opts,
  );
}

export async function startMaintenance(
  master: string,
  machines: MachineID[],
  opts?: OperatorOptions,
): Promise<void> {
  await operatorCall(master, { type: "START_MAINTENANCE", start_maintenance: { machines } }, opts);
}

export async function stopMaintenance(
  master: string,
  machines: MachineID[],
  opts?: OperatorOptions,
): Promise<void> {
  await operatorCall(master, { type: "STOP_MAINTENANCE", stop_maintenance: { machines } }, opts);
}
