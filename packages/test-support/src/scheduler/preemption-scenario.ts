/**
 * A small preemption history on the demo pool tree, made through the
 * system's own write paths (jobs and tasks through the storage gateway, two
 * preemption cycles decided by the engine and recorded with `recordMany`,
 * one victim brought back through the host manager's status writes), for the
 * API and CLI tests (the browser tests follow real preemptions:
 * e2e/support/preemption-journey.ts). Its times sit before `now`.
 *
 *   cycle 1 (now − 50 min), inter-pool
 *     /web          web-frontend (priority 5, 6 × 3 cores) and web-reports
 *                   (priority 1, 3 running + 1 admitted × 3 cores): over its cpu
 *                   entitlement, because…
 *     /infra/batch  nightly-etl (priority 3, 4 cores each) waits, asking for
 *                   all the cluster but 24 cores (6 tasks on 48 cores, 10 on 64)
 *   the victim sent back to PENDING comes back (now − 35 min) and finishes
 *   cycle 2 (now − 20 min), intra-pool
 *     /ml/training  train-resnet (priority 1, 2 × 8 cores and 2 GPUs) holds the
 *                   pool's whole cpu entitlement while train-urgent (priority
 *                   9, 8 cores and 2 GPUs) waits
 */
import { jobConfigSchema, type Resources, type TaskState } from "@peloton/engine";
import type { NewTask, PreemptionRecord, StorageGateway } from "@peloton/storage";
import { type CycleOutcome, readCycleTasks, recordPreemptionCycle } from "./preemption-cycle.ts";

interface JobSpec {
  pool: string;
  name: string;
  type: "BATCH" | "SERVICE";
  priority: number;
  states: TaskState[];
  cpu: number;
  gpu?: number;
}

const MINUTE = 60_000;

async function createJob(gateway: StorageGateway, spec: JobSpec): Promise<string> {
  const pool = await gateway.pools.getByPath(spec.pool);
  if (!pool) throw new Error(`the scenario needs pool ${spec.pool} (the demo tree)`);
  const yaml = `name: ${spec.name}\ntype: ${spec.type}\ninstanceCount: ${spec.states.length}\nsla:\n  priority: ${spec.priority}\n  preemptible: true\n`;
  const { id } = await gateway.jobs.create({
    name: spec.name,
    type: spec.type,
    poolId: pool.id,
    owner: "oncall-demo",
    priority: spec.priority,
    configYaml: yaml,
    // A job config as jobs.create stores it (the schema's output, defaults filled in),
    // so the job manager can act on these jobs like any other.
    config: jobConfigSchema.parse({
      name: spec.name,
      type: spec.type,
      instanceCount: spec.states.length,
      sla: { priority: spec.priority, preemptible: true },
    }),
    instanceCount: spec.states.length,
    state: "RUNNING",
  });
  const tasks: NewTask[] = spec.states.map((state, instanceId) => ({
    jobId: id,
    instanceId,
    state,
    goalState: spec.type === "BATCH" ? "SUCCEEDED" : "RUNNING",
    priority: spec.priority,
    preemptible: true,
    cpu: spec.cpu,
    memMb: 1024,
    diskMb: 1000,
    gpu: spec.gpu ?? 0,
  }));
  await gateway.tasks.insertMany(tasks);
  return id;
}

export interface ScenarioOutcome {
  cycles: [CycleOutcome, CycleOutcome];
  /** The victim sent back to PENDING that came back: the on-call journey follows it. */
  cameBack: PreemptionRecord;
  /** A running victim that was killed (its kill is still to land). */
  killed: PreemptionRecord;
  /** The intra-pool victim. */
  intra: PreemptionRecord;
}

export async function preemptionScenario(
  gateway: StorageGateway,
  databaseUrl: string,
  opts: { now: Date; capacity: Partial<Resources>; hostname: string },
): Promise<ScenarioOutcome> {
  const at = (minutesBefore: number) => new Date(opts.now.getTime() - minutesBefore * MINUTE);
  await createJob(gateway, {
    pool: "/web",
    name: "web-frontend",
    type: "SERVICE",
    priority: 5,
    states: Array(6).fill("RUNNING"),
    cpu: 3,
  });
  await createJob(gateway, {
    pool: "/web",
    name: "web-reports",
    type: "BATCH",
    priority: 1,
    states: ["RUNNING", "RUNNING", "RUNNING", "READY"],
    cpu: 3,
  });
  await createJob(gateway, {
    pool: "/infra/batch",
    name: "nightly-etl",
    type: "BATCH",
    priority: 3,
    // The same contention on any cluster size: /web then stays 6 cores over.
    states: Array(Math.max(1, Math.round(((opts.capacity.cpu ?? 48) - 24) / 4))).fill("PENDING"),
    cpu: 4,
  });
  const first = await recordPreemptionCycle(gateway, await readCycleTasks(databaseUrl), {
    capacity: opts.capacity,
    at: at(50),
  });

  // The admitted victim went back to PENDING; it is placed again, runs and finishes.
  const back = first.rows.find((r) => r.victim.stateAfter === "PENDING");
  const killedRow = first.rows.find((r) => r.victim.stateAfter === "PREEMPTING");
  if (!back || !killedRow) {
    const got = first.rows.map((r) => `${r.victim.jobName}/${r.victim.instanceId}: ${r.reason}`);
    throw new Error(`cycle 1 should send one victim back and kill another; got ${got.join(" | ")}`);
  }
  const clusterTaskId = `${back.victim.jobId}-${back.victim.instanceId}-${back.victim.runId}`;
  // The run's way through the cluster, written the way the job manager writes it.
  const move = (from: TaskState, to: TaskState, minutesBefore: number, source: string) => ({
    taskId: back.victim.taskId,
    jobId: back.victim.jobId,
    instanceId: back.victim.instanceId,
    expect: { state: from, runId: back.victim.runId },
    state: to,
    reason: null,
    message: null,
    set: {
      clusterTaskId,
      hostname: opts.hostname,
      agentId: `${opts.hostname}-agent`,
      ...(to === "RUNNING" ? { startedAt: at(minutesBefore) } : {}),
      ...(to === "SUCCEEDED" ? { finishedAt: at(minutesBefore) } : {}),
    },
    events: [
      {
        runId: back.victim.runId,
        clusterTaskId,
        previousState: from,
        state: to,
        source,
        reason: null,
        message: null,
        hostname: opts.hostname,
        agentId: `${opts.hostname}-agent`,
        at: at(minutesBefore),
      },
    ],
  });
  await gateway.transaction((tx) =>
    tx.taskChanges.apply([move("PENDING", "LAUNCHED", 36, "PLACEMENT")]),
  );
  await gateway.transaction(async (tx) => {
    await tx.taskChanges.apply([move("LAUNCHED", "RUNNING", 35, "HOST_MANAGER")]);
    await tx.preemptions.markRescheduled(back.victim.taskId, back.victim.runId, at(35));
  });
  await gateway.transaction((tx) =>
    tx.taskChanges.apply([move("RUNNING", "SUCCEEDED", 30, "HOST_MANAGER")]),
  );

  // The training team's jobs arrive: its reservation runs, more waits, and nothing is free.
  await createJob(gateway, {
    pool: "/ml/training",
    name: "train-resnet",
    type: "BATCH",
    priority: 1,
    states: ["RUNNING", "RUNNING"],
    cpu: 8,
    gpu: 2,
  });
  await createJob(gateway, {
    pool: "/ml/training",
    name: "train-urgent",
    type: "BATCH",
    priority: 9,
    states: ["PENDING"],
    cpu: 8,
    gpu: 2,
  });
  // A pool over its entitlement for the first period is not due yet (sustained count 3):
  // this cycle only makes room for the waiting gang.
  const second = await recordPreemptionCycle(gateway, await readCycleTasks(databaseUrl), {
    capacity: opts.capacity,
    at: at(20),
    sustainedCount: 3,
  });
  const intraRow = second.rows.find((r) => r.kind === "INTRA_POOL");
  if (!intraRow) throw new Error("cycle 2 should preempt within /ml/training");

  const recordOf = async (taskId: string, outcome: CycleOutcome) => {
    const id = outcome.outcome.recorded.find((r) => r.taskId === taskId)?.id;
    const record = id ? await gateway.preemptions.get(id) : null;
    if (!record) throw new Error(`the preemption of ${taskId} was not recorded`);
    return record;
  };
  return {
    cycles: [first, second],
    cameBack: await recordOf(back.victim.taskId, first),
    killed: await recordOf(killedRow.victim.taskId, first),
    intra: await recordOf(intraRow.victim.taskId, second),
  };
}
