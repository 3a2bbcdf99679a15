/**
 * A host's maintenance on a Mesos master, as Peloton's host drainer does it:
 * into maintenance = scheduled in a window (DRAINING on the master), then
 * START_MAINTENANCE (DOWN: the master removes its agent); out of it =
 * STOP_MAINTENANCE (or, if it never went DOWN, a schedule without it). Each
 * step reads the master's status first, so repeating one after a crash or a
 * leader change does nothing twice.
 */
import {
  getAgents,
  getMaintenanceSchedule,
  getMaintenanceStatus,
  type MachineID,
  type MaintenanceSchedule,
  startMaintenance,
  stopMaintenance,
  updateMaintenanceSchedule,
} from "@peloton/mesos";
import type { MaintenanceMachine } from "../host-adapter.ts";

const same = (a: MachineID, b: MachineID) =>
  (a.hostname ?? "").toLowerCase() === (b.hostname ?? "").toLowerCase() &&
  (a.ip ?? "") === (b.ip ?? "");

/** The IP of the agent's libprocess pid (`slave(1)@10.0.0.5:5051`). */
function pidIp(pid: string | undefined): string | undefined {
  return pid?.match(/@([^:]+):\d+$/)?.[1];
}

/**
 * The machine id Mesos knows the host by: its hostname and the IP of its
 * agent (from GET_AGENTS while it is registered, else the one recorded).
 */
async function machineOf(master: string, host: MaintenanceMachine): Promise<MachineID> {
  const agents = await getAgents(master);
  const agent = agents.find((a) => a.agent_info.hostname === host.hostname);
  const ip = pidIp(agent?.pid) ?? host.ip ?? undefined;
  return { hostname: host.hostname, ...(ip ? { ip } : {}) };
}

function withoutMachine(schedule: MaintenanceSchedule, m: MachineID): MaintenanceSchedule {
  return {
    windows: (schedule.windows ?? [])
      .map((w) => ({ ...w, machine_ids: w.machine_ids.filter((id) => !same(id, m)) }))
      .filter((w) => w.machine_ids.length > 0),
  };
}

/** Schedules the machine (a window starting now) unless it is, then starts its maintenance. */
export async function putMachineDown(master: string, host: MaintenanceMachine): Promise<void> {
  const machine = await machineOf(master, host);
  const status = await getMaintenanceStatus(master);
  if ((status.down_machines ?? []).some((m) => same(m, machine))) return;
  const schedule = await getMaintenanceSchedule(master);
  const scheduled = (schedule.windows ?? []).some((w) =>
    w.machine_ids.some((m) => same(m, machine)),
  );
  if (!scheduled) {
    const window = {
      machine_ids: [machine],
      unavailability: { start: { nanoseconds: Date.now() * 1_000_000 } },
    };
    await updateMaintenanceSchedule(master, { windows: [...(schedule.windows ?? []), window] });
  }
  await startMaintenance(master, [machine]);
}

/** Stops the machine's maintenance (DOWN), or takes it out of the schedule (DRAINING). */
export async function bringMachineUp(master: string, host: MaintenanceMachine): Promise<void> {
  const status = await getMaintenanceStatus(master);
  const down = (status.down_machines ?? []).find(
    (m) => (m.hostname ?? "").toLowerCase() === host.hostname.toLowerCase(),
  );
  if (down !== undefined) {
    await stopMaintenance(master, [down]);
    return;
  }
  const schedule = await getMaintenanceSchedule(master);
  const entry = (schedule.windows ?? [])
    .flatMap((w) => w.machine_ids)
    .find((m) => (m.hostname ?? "").toLowerCase() === host.hostname.toLowerCase());
  if (entry !== undefined) await updateMaintenanceSchedule(master, withoutMachine(schedule, entry));
}
