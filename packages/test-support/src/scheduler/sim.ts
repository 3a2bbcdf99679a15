/**
 * What every test of a running scheduler needs: an in-process mesos-sim on
 * short intervals (stopped after the test), cleanups run after each test in
 * reverse order, and a logger that is silent unless PELOTON_TEST_LOG names a
 * level.
 */
import { type AgentSpec, type MesosSim, type MesosSimOptions, startMesosSim } from "@peloton/mesos";
import { silentLogger } from "@peloton/scheduler";
import { pino } from "pino";
import { afterEach } from "vitest";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

export function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

/** Silent, unless PELOTON_TEST_LOG names a level (debugging a test). */
export const log = process.env.PELOTON_TEST_LOG
  ? pino({ level: process.env.PELOTON_TEST_LOG })
  : silentLogger();

/** Two agents in two zones, the second with GPUs. */
export const TWO_AGENTS: AgentSpec[] = [
  {
    hostname: "cpu-1.test",
    resources: { cpus: 8, mem: 16384, disk: 100_000 },
    attributes: { zone: "a" },
  },
  {
    hostname: "gpu-1.test",
    resources: { cpus: 16, mem: 65536, disk: 100_000, gpus: 2 },
    attributes: { zone: "b", gpu_model: "a100" },
  },
];

export async function testSim(opts: MesosSimOptions = {}): Promise<MesosSim> {
  const sim = await startMesosSim({
    heartbeatIntervalSeconds: 0.2,
    allocationIntervalSeconds: 0.05,
    killGracePeriodSeconds: 1,
    agents: TWO_AGENTS,
    ...opts,
  });
  onCleanup(() => sim.stop());
  return sim;
}
