/** Sims and clients for tests, always stopped in afterEach. */
import { afterEach } from "vitest";
import {
  type FrameworkInfo,
  type MesosClientOptions,
  MesosSchedulerClient,
  type MesosSim,
  type MesosSimOptions,
  type Resource,
  startMesosSim,
  type TaskInfo,
} from "../../src/index.ts";
import { type EventLog, record } from "./events.ts";

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  const list = cleanups.splice(0).reverse();
  for (const fn of list) await fn();
});

export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

export const FAST = {
  heartbeatIntervalSeconds: 0.2,
  allocationIntervalSeconds: 0.05,
} satisfies MesosSimOptions;

export async function sim(opts: MesosSimOptions = {}): Promise<MesosSim> {
  const s = await startMesosSim({ ...FAST, agents: 2, killGracePeriodSeconds: 1, ...opts });
  onCleanup(() => s.stop());
  return s;
}

export function frameworkInfo(overrides: Partial<FrameworkInfo> = {}): FrameworkInfo {
  return {
    user: "tester",
    name: "mesos-test",
    roles: ["test"],
    failover_timeout: 60,
    capabilities: [{ type: "MULTI_ROLE" }],
    ...overrides,
  };
}

export async function client(
  s: { url: string } | string,
  opts: Partial<MesosClientOptions> = {},
): Promise<{ client: MesosSchedulerClient; log: EventLog; frameworkId: string }> {
  const c = new MesosSchedulerClient({
    master: typeof s === "string" ? s : s.url,
    frameworkInfo: frameworkInfo(),
    backoff: { initialMs: 20, maxMs: 200 },
    requestTimeoutMs: 5000,
    ...opts,
  });
  onCleanup(() => c.stop());
  const log = record(c);
  const info = await c.start();
  return { client: c, log, frameworkId: info.frameworkId };
}

export function cpuMem(cpus: number, mem: number, role = "test"): Resource[] {
  return [
    { name: "cpus", type: "SCALAR", scalar: { value: cpus }, role: "*", allocation_info: { role } },
    { name: "mem", type: "SCALAR", scalar: { value: mem }, role: "*", allocation_info: { role } },
  ];
}

export function shellTask(
  id: string,
  agentId: string,
  command: string,
  extra: Partial<TaskInfo> = {},
): TaskInfo {
  return {
    name: id,
    task_id: { value: id },
    agent_id: { value: agentId },
    resources: cpuMem(0.1, 32),
    command: { shell: true, value: command },
    ...extra,
  };
}

/** A task the sim runs without a process, for `durationMs` (see simulated-run.ts). */
export function simTask(id: string, agentId: string, durationMs: number, exitCode = 0): TaskInfo {
  return shellTask(id, agentId, "true", {
    labels: {
      labels: [
        { key: "PELOTON_SIM_DURATION_MS", value: String(durationMs) },
        { key: "PELOTON_SIM_EXIT_CODE", value: String(exitCode) },
      ],
    },
  });
}
