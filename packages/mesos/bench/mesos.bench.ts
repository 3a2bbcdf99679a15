/**
 * mesos.launch_10k  — 10,000 simulated tasks launched in ACCEPT calls through
 *                     the client and mesos-sim: launches/s from the first
 *                     ACCEPT until every task's first update (TASK_STARTING)
 *                     is back at the client.
 * mesos.updates_10k — ~10,000 status updates (3,334 zero-length tasks ×
 *                     STARTING, RUNNING, FINISHED) streamed back and each
 *                     acknowledged (one ACKNOWLEDGE call per update, as the
 *                     protocol wants): acknowledged updates/s from the first
 *                     update received until the last ACKNOWLEDGE got its 202.
 *                     `including_launch_per_s` counts from the first ACCEPT.
 * The sim runs in a child process; each round is a fresh framework, torn down after.
 */

import { type SimProcess, spawnSim } from "@peloton/test-support/mesos/sim-process.ts";
import { type Benchmark, type BenchResult, log, median, rssMb } from "../../../bench/harness.ts";
import { MesosSchedulerClient, type Offer, type TaskInfo } from "../src/index.ts";

const AGENTS = 20;
const WARMUP = 1;
const ROUNDS = 5;

function task(id: string, agentId: string, durationMs: number): TaskInfo {
  return {
    name: id,
    task_id: { value: id },
    agent_id: { value: agentId },
    resources: [
      {
        name: "cpus",
        type: "SCALAR",
        scalar: { value: 0.01 },
        role: "*",
        allocation_info: { role: "bench" },
      },
      {
        name: "mem",
        type: "SCALAR",
        scalar: { value: 1 },
        role: "*",
        allocation_info: { role: "bench" },
      },
    ],
    command: { value: "true" },
    labels: { labels: [{ key: "PELOTON_SIM_DURATION_MS", value: String(durationMs) }] },
  };
}

/**
 * One framework for one round: launches `n` tasks over the offers as they come and
 * resolves with the ms from the first ACCEPT until `isDone` says the round is over.
 * Listeners are attached before start(): OFFERS can arrive in SUBSCRIBED's chunk.
 */
async function runRound(
  url: string,
  round: number,
  n: number,
  durationMs: number,
  watch: (client: MesosSchedulerClient, finish: () => void) => void,
): Promise<{ fromAccept: number; fromFirstUpdate: number }> {
  const client = new MesosSchedulerClient({
    master: url,
    frameworkInfo: {
      user: "bench",
      name: "mesos-bench",
      roles: ["bench"],
      capabilities: [{ type: "MULTI_ROLE" }, { type: "GPU_RESOURCES" }],
    },
    maxSockets: 32,
  });
  let t0 = 0;
  let firstUpdate = 0;
  client.on("update", () => {
    if (firstUpdate === 0) firstUpdate = performance.now();
  });
  let finish: () => void = () => {};
  const done = new Promise<void>((r) => {
    finish = r;
  });
  let next = 0;
  client.on("offers", (offers: Offer[]) => {
    for (const offer of offers) {
      if (next >= n) {
        // A decline still in flight when the round tears down fails harmlessly.
        client.decline([offer.id], { refuse_seconds: 3600 }).catch(() => {});
        continue;
      }
      const cpus = offer.resources?.find((r) => r.name === "cpus")?.scalar?.value ?? 0;
      const count = Math.min(n - next, Math.floor(cpus / 0.01 + 1e-9), 500);
      const tasks = Array.from({ length: count }, (_, i) =>
        task(`r${round}-t${next + i}`, offer.agent_id.value, durationMs),
      );
      next += count;
      if (t0 === 0) t0 = performance.now();
      client
        .launch([offer.id], tasks, { refuse_seconds: 0 })
        .catch((err: unknown) => log("launch failed", err));
    }
  });
  watch(client, () => finish());
  await client.start();
  const cpu0 = process.cpuUsage();
  await done;
  const end = performance.now();
  const cpu = process.cpuUsage(cpu0);
  if (process.env.BENCH_CPU)
    log(
      `client cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (user ${(cpu.user / 1000).toFixed(0)}, sys ${(cpu.system / 1000).toFixed(0)}), wall ${(end - t0).toFixed(0)} ms`,
    );
  await client.teardown();
  return { fromAccept: end - t0, fromFirstUpdate: end - firstUpdate };
}

type Round = { fromAccept: number; fromFirstUpdate: number };

async function rounds(measure: (round: number) => Promise<Round>): Promise<Round[]> {
  const times: Round[] = [];
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    const t = await measure(r);
    if (r >= WARMUP) times.push(t);
    log(
      `round ${r}${r < WARMUP ? " (warm-up)" : ""}: ${t.fromAccept.toFixed(1)} ms from the first ACCEPT, ${t.fromFirstUpdate.toFixed(1)} ms from the first update`,
    );
  }
  return times;
}

function result(
  name: string,
  unit: string,
  n: number,
  times: number[],
  extra: Record<string, number> = {},
): BenchResult {
  const ms = median(times);
  return {
    bench: name,
    unit,
    value: Math.round((n / ms) * 1000),
    n,
    p50_ms: null,
    p95_ms: null,
    rss_mb: rssMb(),
    median_round_ms: Math.round(ms),
    ...extra,
  };
}

async function withSim<T>(fn: (sim: SimProcess) => Promise<T>): Promise<T> {
  const sim = await spawnSim(["--agents", String(AGENTS), "--simulate"]);
  try {
    return await fn(sim);
  } finally {
    await sim.stop();
  }
}

const launch10k: Benchmark = {
  name: "mesos.launch_10k",
  run: () =>
    withSim(async (sim) => {
      const N = 10_000;
      const times = await rounds((round) =>
        runRound(sim.url, round, N, 600_000, (client, finish) => {
          let started = 0;
          client.on("update", (s) => {
            if (s.state === "TASK_STARTING" && ++started === N) finish();
          });
        }),
      );
      return result(
        "mesos.launch_10k",
        "launches/s",
        N,
        times.map((t) => t.fromAccept),
      );
    }),
};

const updates10k: Benchmark = {
  name: "mesos.updates_10k",
  run: () =>
    withSim(async (sim) => {
      const TASKS = 3334;
      const N = TASKS * 3;
      const times = await rounds((round) =>
        runRound(sim.url, round, TASKS, 0, (client, finish) => {
          let acked = 0;
          client.on("update", (s) => {
            if (s.uuid === undefined) return;
            client.acknowledge(s).then(
              () => {
                if (++acked === N) finish();
              },
              (err: unknown) => log("ack failed", err),
            );
          });
        }),
      );
      const withLaunch = median(times.map((t) => t.fromAccept));
      return result(
        "mesos.updates_10k",
        "acknowledged updates/s",
        N,
        times.map((t) => t.fromFirstUpdate),
        { including_launch_per_s: Math.round((N / withLaunch) * 1000) },
      );
    }),
};

export default [launch10k, updates10k] satisfies Benchmark[];
