/**
 * Maintenance in mesos-sim, as the Mesos master keeps it (master/maintenance.cpp
 * and its validation; the v1 operator calls UPDATE_MAINTENANCE_SCHEDULE,
 * GET_MAINTENANCE_SCHEDULE, GET_MAINTENANCE_STATUS, START_MAINTENANCE and
 * STOP_MAINTENANCE):
 *
 *   UP ──scheduled in a window──▶ DRAINING ──START_MAINTENANCE──▶ DOWN
 *   DRAINING ──left out of a new schedule──▶ UP
 *   DOWN ──STOP_MAINTENANCE (also leaves the schedule)──▶ UP
 *
 * A machine is a MachineID (hostname and/or IP, hostname compared in lower
 * case); an agent is on a machine when both its hostname and its IP match.
 * Starting maintenance removes the machine's agents (their tasks are lost to
 * the operator, every framework gets FAILURE); while DOWN no agent of the
 * machine may register. Stopping it lets them register again: the sim then
 * restarts those agents itself, as a supervisor would restart mesos-agent on
 * a machine back from maintenance (with new agent ids: Mesos never lets a
 * removed agent id back). Inverse offers are not sent (Mesos makes them
 * optional for frameworks); draining machines' statuses are empty.
 *
 * Every refusal is Mesos' 400 with its sentence; nothing changes then.
 */
import type {
  MachineID,
  MaintenanceClusterStatus,
  MaintenanceSchedule,
  MaintenanceWindow,
} from "../proto/operator.ts";

export type MachineMode = "DRAINING" | "DOWN";

/** The outcome of a maintenance call: done, or refused with Mesos' message. */
export type MaintenanceOutcome = { ok: true } | { ok: false; message: string };

/** How an agent is matched to a machine. */
export interface MachineOfAgent {
  hostname: string;
  ip: string;
}

const key = (m: MachineID) => `${(m.hostname ?? "").toLowerCase()}\u0000${m.ip ?? ""}`;

/** Mesos' own rendering of a machine id in its messages. */
export function describeMachine(m: MachineID): string {
  if (m.hostname && m.ip) return `${m.hostname} (${m.ip})`;
  return m.hostname || m.ip || "";
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** Mesos' validation::machine: a hostname or an IP, and an IP that parses. */
function invalidMachine(m: unknown): string | null {
  if (typeof m !== "object" || m === null) return "Expecting a MachineID object";
  const { hostname, ip } = m as MachineID;
  if (hostname !== undefined && typeof hostname !== "string") return "'hostname' must be a string";
  if (ip !== undefined && typeof ip !== "string") return "'ip' must be a string";
  if (!hostname && !ip) return "Both 'hostname' and 'ip' for a MachineID are empty";
  if (ip && !IPV4.test(ip)) return `Failed to parse IP '${ip}'`;
  return null;
}

/** Mesos' validation::machines: a non-empty list of valid machines, each once. */
export function invalidMachineList(machines: unknown): string | null {
  if (!Array.isArray(machines) || machines.length === 0) return "List of machines is empty";
  const seen = new Set<string>();
  for (const m of machines) {
    const bad = invalidMachine(m);
    if (bad !== null) return bad;
    const k = key(m as MachineID);
    if (seen.has(k)) return `Machine '${describeMachine(m as MachineID)}' is a duplicate`;
    seen.add(k);
  }
  return null;
}

function invalidUnavailability(u: unknown): string | null {
  if (typeof u !== "object" || u === null) return "Expecting 'unavailability' to be present";
  const { start, duration } = u as { start?: { nanoseconds?: unknown }; duration?: unknown };
  const nanos = (v: unknown) =>
    typeof v === "object" && v !== null
      ? Number((v as { nanoseconds?: unknown }).nanoseconds)
      : Number.NaN;
  if (!Number.isFinite(nanos(start))) return "Expecting 'unavailability.start' to be present";
  if (duration !== undefined) {
    const d = nanos(duration);
    if (!Number.isFinite(d)) return "Expecting 'unavailability.duration.nanoseconds'";
    if (d < 0) return "Unavailability 'duration' is negative";
  }
  return null;
}

export class MaintenanceBook {
  private schedule: MaintenanceWindow[] = [];
  private readonly modes = new Map<string, { id: MachineID; mode: MachineMode }>();

  /** The schedule as GET_MAINTENANCE_SCHEDULE answers it. */
  getSchedule(): MaintenanceSchedule {
    return { windows: structuredClone(this.schedule) };
  }

  /** The machines in maintenance, as GET_MAINTENANCE_STATUS answers it. */
  status(): MaintenanceClusterStatus {
    const draining: MaintenanceClusterStatus["draining_machines"] = [];
    const down: MachineID[] = [];
    for (const { id, mode } of this.modes.values()) {
      if (mode === "DRAINING") draining.push({ id: { ...id }, statuses: [] });
      else down.push({ ...id });
    }
    return { draining_machines: draining, down_machines: down };
  }

  /** The mode of the machine an agent is on; undefined = UP. */
  modeOf(agent: MachineOfAgent): MachineMode | undefined {
    return this.modes.get(key(agent))?.mode;
  }

  /**
   * UPDATE_MAINTENANCE_SCHEDULE: replaces the schedule. Newly scheduled
   * machines become DRAINING, unscheduled DRAINING ones UP; a DOWN machine
   * may not be left out.
   */
  update(schedule: unknown): MaintenanceOutcome {
    const windows = (schedule as MaintenanceSchedule | undefined)?.windows ?? [];
    if (!Array.isArray(windows)) return { ok: false, message: "'windows' must be a list" };
    const seen = new Map<string, MachineID>();
    for (const w of windows as unknown[]) {
      const ids = (w as Partial<MaintenanceWindow> | null)?.machine_ids;
      if (!Array.isArray(ids) || ids.length === 0) {
        return { ok: false, message: "List of machines in the maintenance window is empty" };
      }
      const badU = invalidUnavailability((w as MaintenanceWindow).unavailability);
      if (badU !== null) return { ok: false, message: badU };
      for (const m of ids) {
        const bad = invalidMachine(m);
        if (bad !== null) return { ok: false, message: bad };
        const k = key(m as MachineID);
        if (seen.has(k)) {
          return {
            ok: false,
            message: `Machine '${describeMachine(m as MachineID)}' appears more than once in the schedule`,
          };
        }
        seen.set(k, m as MachineID);
      }
    }
    for (const [k, { id, mode }] of this.modes) {
      if (mode === "DOWN" && !seen.has(k)) {
        return {
          ok: false,
          message: `Machine '${describeMachine(id)}' is deactivated and cannot be removed from the schedule`,
        };
      }
    }
    for (const [k, { mode }] of [...this.modes]) {
      if (mode === "DRAINING" && !seen.has(k)) this.modes.delete(k);
    }
    for (const [k, id] of seen) {
      if (!this.modes.has(k)) this.modes.set(k, { id: normalized(id), mode: "DRAINING" });
    }
    this.schedule = structuredClone(windows as MaintenanceWindow[]);
    return { ok: true };
  }

  /** START_MAINTENANCE: DRAINING machines become DOWN (the caller removes their agents). */
  start(machines: unknown): MaintenanceOutcome {
    const bad = invalidMachineList(machines);
    if (bad !== null) return { ok: false, message: bad };
    for (const m of machines as MachineID[]) {
      const entry = this.modes.get(key(m));
      if (entry === undefined) {
        return {
          ok: false,
          message: `Machine '${describeMachine(m)}' is not part of a maintenance schedule`,
        };
      }
      if (entry.mode !== "DRAINING") {
        return {
          ok: false,
          message: `Machine '${describeMachine(m)}' is not in DRAINING mode and cannot be brought down`,
        };
      }
    }
    for (const m of machines as MachineID[]) this.modes.get(key(m))!.mode = "DOWN";
    return { ok: true };
  }

  /** STOP_MAINTENANCE: DOWN machines become UP and leave the schedule. */
  stop(machines: unknown): MaintenanceOutcome {
    const bad = invalidMachineList(machines);
    if (bad !== null) return { ok: false, message: bad };
    for (const m of machines as MachineID[]) {
      if (this.modes.get(key(m))?.mode !== "DOWN") {
        return {
          ok: false,
          message: `Machine '${describeMachine(m)}' is not in DOWN mode and cannot be brought up`,
        };
      }
    }
    const gone = new Set((machines as MachineID[]).map(key));
    for (const k of gone) this.modes.delete(k);
    this.schedule = this.schedule
      .map((w) => ({ ...w, machine_ids: w.machine_ids.filter((m) => !gone.has(key(m))) }))
      .filter((w) => w.machine_ids.length > 0);
    return { ok: true };
  }

  /** Whether an agent on this machine matches one of these machine ids. */
  static matches(agent: MachineOfAgent, machines: readonly MachineID[]): boolean {
    return machines.some((m) => key(m) === key(agent));
  }
}

function normalized(id: MachineID): MachineID {
  return {
    ...(id.hostname ? { hostname: id.hostname.toLowerCase() } : {}),
    ...(id.ip ? { ip: id.ip } : {}),
  };
}
