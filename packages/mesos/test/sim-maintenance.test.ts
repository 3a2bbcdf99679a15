/**
 * mesos-sim's maintenance calls against the Mesos v1 operator protocol:
 * the schedule (machines DRAINING), START_MAINTENANCE (DOWN: the agent is
 * removed and may not register), STOP_MAINTENANCE (UP, out of the schedule,
 * the agent back), each refusal a 400 with Mesos' sentence and no change.
 */
import { describe, expect, it } from "vitest";
import {
  getAgents,
  getMaintenanceSchedule,
  getMaintenanceStatus,
  type MachineID,
  MesosError,
  operatorCall,
  startMaintenance,
  stopMaintenance,
  updateMaintenanceSchedule,
} from "../src/index.ts";
import { client, sim, simTask } from "./support/harness.ts";

const NOW = { nanoseconds: Date.now() * 1_000_000 };
const windowOf = (...machine_ids: MachineID[]) => ({ machine_ids, unavailability: { start: NOW } });

async function refusal(call: Promise<unknown>): Promise<unknown> {
  const err = await call.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MesosError);
  return err;
}

describe("mesos-sim maintenance (v1 operator API)", () => {
  it("schedule → DRAINING, START → DOWN (agent removed, tasks lost), STOP → UP and the agent back", async () => {
    const s = await sim({ agents: 2 });
    const [first] = await getAgents(s.url);
    const hostname = first!.agent_info.hostname;
    const machine = { hostname, ip: "127.0.0.1" };
    const { client: c, log } = await client(s);
    const offer = (await log.offers()).find((o) => o.hostname === hostname)!;
    await c.launch([offer.id], [simTask("mt-1", offer.agent_id.value, 60_000)]);
    await log.update("mt-1", "TASK_STARTING");

    await updateMaintenanceSchedule(s.url, { windows: [windowOf(machine)] });
    expect(await getMaintenanceSchedule(s.url)).toEqual({ windows: [windowOf(machine)] });
    expect(await getMaintenanceStatus(s.url)).toEqual({
      draining_machines: [{ id: machine, statuses: [] }],
      down_machines: [],
    });

    await startMaintenance(s.url, [machine]);
    expect(await getMaintenanceStatus(s.url)).toEqual({
      draining_machines: [],
      down_machines: [machine],
    });
    await log.waitFor((e) => e.type === "FAILURE", { what: "FAILURE" });
    expect(await log.update("mt-1", "TASK_LOST")).toMatchObject({
      reason: "REASON_AGENT_REMOVED_BY_OPERATOR",
    });
    expect((await getAgents(s.url)).map((a) => a.agent_info.hostname)).not.toContain(hostname);
    // While DOWN, the machine's agents may not register.
    await expect(s.addAgent({ hostname, resources: { cpus: 1, mem: 128 } })).rejects.toThrow(
      /DOWN for maintenance/,
    );
    // A DOWN machine cannot leave the schedule.
    expect(await refusal(updateMaintenanceSchedule(s.url, { windows: [] }))).toMatchObject({
      status: 400,
      masterMessage: `Machine '${hostname} (127.0.0.1)' is deactivated and cannot be removed from the schedule`,
    });

    await stopMaintenance(s.url, [machine]);
    expect(await getMaintenanceStatus(s.url)).toEqual({ draining_machines: [], down_machines: [] });
    expect(await getMaintenanceSchedule(s.url)).toEqual({ windows: [] });
    await expect
      .poll(async () => (await getAgents(s.url)).map((a) => a.agent_info.hostname))
      .toContain(hostname);
    const back = (await getAgents(s.url)).find((a) => a.agent_info.hostname === hostname)!;
    // Mesos never lets a removed agent id back: the agent registers anew.
    expect(back.agent_info.id?.value).not.toBe(first!.agent_info.id?.value);
  });

  it("a DRAINING machine left out of a new schedule is UP again", async () => {
    const s = await sim({ agents: 1 });
    const [a] = await getAgents(s.url);
    const machine = { hostname: a!.agent_info.hostname, ip: "127.0.0.1" };
    await updateMaintenanceSchedule(s.url, { windows: [windowOf(machine)] });
    await updateMaintenanceSchedule(s.url, { windows: [] });
    expect(await getMaintenanceStatus(s.url)).toEqual({ draining_machines: [], down_machines: [] });
  });

  it.each([
    [
      "an empty window",
      { windows: [{ machine_ids: [], unavailability: { start: NOW } }] },
      "List of machines in the maintenance window is empty",
    ],
    [
      "a machine without hostname or ip",
      { windows: [windowOf({})] },
      "Both 'hostname' and 'ip' for a MachineID are empty",
    ],
    ["a bad ip", { windows: [windowOf({ ip: "300.1.1.1" })] }, "Failed to parse IP '300.1.1.1'"],
    [
      "a machine twice",
      { windows: [windowOf({ hostname: "a" }), windowOf({ hostname: "A" })] },
      "Machine 'A' appears more than once in the schedule",
    ],
    [
      "a negative duration",
      {
        windows: [
          {
            machine_ids: [{ hostname: "a" }],
            unavailability: { start: NOW, duration: { nanoseconds: -1 } },
          },
        ],
      },
      "Unavailability 'duration' is negative",
    ],
  ])(
    "UPDATE_MAINTENANCE_SCHEDULE refuses %s with 400 and changes nothing",
    async (_, schedule, message) => {
      const s = await sim({ agents: 1 });
      expect(await refusal(updateMaintenanceSchedule(s.url, schedule))).toMatchObject({
        status: 400,
        masterMessage: message,
      });
      expect(await getMaintenanceSchedule(s.url)).toEqual({ windows: [] });
    },
  );

  it("START and STOP refuse machines not in the mode they start from", async () => {
    const s = await sim({ agents: 1 });
    const m = { hostname: "nowhere", ip: "127.0.0.1" };
    expect(await refusal(startMaintenance(s.url, [m]))).toMatchObject({
      status: 400,
      masterMessage: "Machine 'nowhere (127.0.0.1)' is not part of a maintenance schedule",
    });
    expect(await refusal(stopMaintenance(s.url, [m]))).toMatchObject({
      status: 400,
      masterMessage: "Machine 'nowhere (127.0.0.1)' is not in DOWN mode and cannot be brought up",
    });
    await updateMaintenanceSchedule(s.url, { windows: [windowOf(m)] });
    await startMaintenance(s.url, [m]);
    expect(await refusal(startMaintenance(s.url, [m]))).toMatchObject({
      masterMessage:
        "Machine 'nowhere (127.0.0.1)' is not in DRAINING mode and cannot be brought down",
    });
    expect(await refusal(startMaintenance(s.url, []))).toMatchObject({
      masterMessage: "List of machines is empty",
    });
    expect(
      await refusal(operatorCall(s.url, { type: "START_MAINTENANCE" } as never)),
    ).toMatchObject({ status: 400, masterMessage: "Expecting 'start_maintenance' to be present" });
  });
});
