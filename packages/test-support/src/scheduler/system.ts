/**
 * The running system for job manager tests: an in-process mesos-sim, the
 * real scheduler runtime (leader election, host manager, job manager loops)
 * on the scratch database, leaf pools, and jobs submitted the way the API
 * submits them (`createJob` with a parsed Peloton config).
 */
import { type JobConfigInput, jobConfigSchema } from "@peloton/engine";
import type { AgentSpec, MesosSim, MesosSimOptions } from "@peloton/mesos";
import {
  createJob,
  type SchedulerRuntime,
  type SchedulingTuning,
  startScheduler,
} from "@peloton/scheduler";
import { mesosHostAdapter } from "@peloton/scheduler/boot";
import type { StorageGateway } from "@peloton/storage";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { expect, inject } from "vitest";
import { log, onCleanup, testSim } from "./sim.ts";

export interface System {
  sim: MesosSim;
  runtime: SchedulerRuntime;
}

/** mesos-sim with these agents and the leader's loops on short periods (`tuning` adds to them). */
export async function startSystem(
  agents: AgentSpec[],
  simOpts: MesosSimOptions = {},
  tuning: SchedulingTuning = {},
): Promise<System> {
  const sim = await testSim({ agents, ...simOpts });
  const runtime = await startTestScheduler(sim.url, tuning);
  return { sim, runtime };
}

/** The scheduler runtime with the leader's loops on short periods, on any master. */
export async function startTestScheduler(
  masterUrl: string,
  tuning: SchedulingTuning = {},
): Promise<SchedulerRuntime> {
  const runtime = startScheduler({
    databaseUrl: inject("databaseUrl"),
    adapter: mesosHostAdapter({
      master: masterUrl,
      hostRefreshMs: 200,
      client: { backoff: { initialMs: 20, maxMs: 200 } },
    }),
    log,
    election: { retryMs: 100, renewMs: 500 },
    drainPeriodMs: 200,
    scheduling: {
      admissionPeriodMs: 200,
      placement: { periodMs: 200 },
      goalState: { periodMs: 200, clusterTimeoutMs: 3_000 },
      ...tuning,
    },
  });
  onCleanup(() => runtime.stop());
  await runtime.ready();
  return runtime;
}

/**
 * A leaf pool under the root with these resources (the root made when
 * missing); by default ROOMY, since a job above its pool's limit or (non-
 * preemptible) reservation is refused at submit.
 */
export async function leafPool(
  gateway: StorageGateway,
  name = "batch",
  resources: Parameters<StorageGateway["pools"]["create"]>[0]["resources"] = ROOMY,
): Promise<string> {
  const root =
    (await gateway.pools.getByPath("/")) ??
    (await gateway.pools.create(
      { path: "/", name: "root", parentId: null, resources: {} },
      "test",
    ));
  const path = `/${name}`;
  await gateway.pools.create({ path, name, parentId: root.id, resources }, "test");
  return path;
}

/**
 * Generous pool resources: room for everything the tests run. Jobs are
 * non-preemptible unless they say otherwise (Peloton's default), and
 * non-preemptible work must fit in the reservation.
 */
export const ROOMY = {
  cpu: { reservation: 1000, limit: 1000, share: 1 },
  memory: { reservation: 1_000_000, limit: 1_000_000, share: 1 },
  disk: { reservation: 10_000_000, limit: 10_000_000, share: 1 },
  gpu: { reservation: 100, limit: 100, share: 1 },
} as const;

/** Submits a job as the API does; returns its id. */
export async function submit(
  gateway: StorageGateway,
  pool: string,
  config: JobConfigInput,
): Promise<string> {
  const parsed = jobConfigSchema.parse(config);
  const result = await createJob(gateway, {
    config: parsed,
    configYaml: JSON.stringify(config),
    poolPath: pool,
    acting: { login: "test", via: "test" },
  });
  if (!result.ok) throw new Error(`job refused: ${JSON.stringify(result.failure)}`);
  return result.jobId;
}

export interface TaskRowView {
  instance_id: number;
  state: string;
  run_id: number;
  hostname: string | null;
  reason: string | null;
  message: string | null;
  pinned_host: string | null;
  failure_count: number;
}

export async function tasksOf(jobId: string): Promise<TaskRowView[]> {
  return directSql<TaskRowView>(
    `SELECT instance_id, state::text, run_id, hostname, reason, message, pinned_host, failure_count
     FROM tasks WHERE job_id = $1 ORDER BY instance_id`,
    [jobId],
  );
}

export async function statesOf(jobId: string): Promise<string[]> {
  return (await tasksOf(jobId)).map((t) => t.state);
}

export async function jobState(jobId: string): Promise<string> {
  const [row] = await directSql<{ state: string }>("SELECT state::text FROM jobs WHERE id = $1", [
    jobId,
  ]);
  return row?.state ?? "MISSING";
}

/** Waits until every task of the job is in `state`. */
export async function allIn(jobId: string, state: string, timeout = 20_000): Promise<void> {
  await expect
    .poll(async () => [...new Set(await statesOf(jobId))], { timeout, interval: 100 })
    .toEqual([state]);
}

export async function eventsOf(jobId: string, instance: number) {
  return directSql<{
    run_id: number;
    previous_state: string | null;
    state: string;
    source: string;
    reason: string | null;
    message: string | null;
    hostname: string | null;
  }>(
    `SELECT run_id, previous_state::text, state::text, source, reason, message, hostname
     FROM task_events WHERE job_id = $1 AND instance_id = $2 ORDER BY id`,
    [jobId, instance],
  );
}

export function agent(hostname: string, extra: Partial<AgentSpec> = {}): AgentSpec {
  return {
    hostname,
    resources: { cpus: 4, mem: 8192, disk: 100_000 },
    attributes: { zone: "a" },
    ...extra,
  };
}
