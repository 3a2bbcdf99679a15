/**
 * mesos-sim as a standalone master:
 *   npm run mesos-sim -- --port 5050 --agents <file.json | N> [--heartbeat 15]
 *     [--sandbox-dir DIR [--no-checkpoint] [--kill-tasks]] [--simulate]
 *     [--offer-timeout S] [--host 127.0.0.1]
 * Prints one JSON line {"url": ...} on stdout once listening (so a parent
 * process can read the port when --port 0), logs (pino, JSON) on stderr, stops on SIGINT/SIGTERM.
 *
 * With --sandbox-dir the agents' state is checkpointed there (unless
 * --no-checkpoint): a stop leaves the tasks running and the next mesos-sim on
 * the same dir adopts them; --kill-tasks kills them at the stop instead.
 * Without it the sandboxes go to a temp dir and tasks die with the sim.
 */
import { parseArgs } from "node:util";
import { pino } from "pino";
import { agentsFromArgument } from "./cluster.ts";
import { startMesosSim } from "./start.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "5050" },
    host: { type: "string", default: "127.0.0.1" },
    agents: { type: "string" },
    heartbeat: { type: "string" },
    "sandbox-dir": { type: "string" },
    "no-checkpoint": { type: "boolean", default: false },
    "kill-tasks": { type: "boolean", default: false },
    simulate: { type: "boolean", default: false },
    "offer-timeout": { type: "string" },
    quiet: { type: "boolean", default: false },
  },
});

function seconds(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}

/** Logs go to stderr through pino (stdout carries the one JSON line a parent reads). */
const logger = pino(
  { name: "mesos-sim", level: values.quiet ? "silent" : "info" },
  pino.destination(2),
);

const sim = await startMesosSim({
  port: Number(values.port),
  host: values.host,
  agents: agentsFromArgument(values.agents),
  simulateTasks: values.simulate,
  ...(values["sandbox-dir"] !== undefined ? { sandboxDir: values["sandbox-dir"] } : {}),
  ...(values["no-checkpoint"] ? { checkpoint: false } : {}),
  ...(values.heartbeat !== undefined
    ? { heartbeatIntervalSeconds: seconds("heartbeat", values.heartbeat) }
    : {}),
  ...(values["offer-timeout"] !== undefined
    ? { offerTimeoutSeconds: seconds("offer-timeout", values["offer-timeout"]) }
    : {}),
  log: (line) => logger.info(line),
});
process.stdout.write(
  `${JSON.stringify({
    url: sim.url,
    sandboxRoot: sim.sandboxRoot,
    agents: sim.agents().length,
    checkpointing: sim.checkpointing,
    recovered: sim.recovery,
  })}\n`,
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void sim.stop(values["kill-tasks"] ? { killTasks: true } : {}).then(() => process.exit(0));
  });
}
