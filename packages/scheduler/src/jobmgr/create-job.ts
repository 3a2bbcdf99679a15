/**
 * Submitting a job (Peloton's CreateJob): the config is checked against the
 * engine's rules, then the job row (config as submitted and as parsed), one
 * task row per instance at PENDING with its first event, the job's task
 * counts, the audit row and the announcement commit in one transaction.
 * Nothing is stored when any check fails, nor when a gang of the job could
 * never run in its pool on these hosts. Runs in the API process: the
 * leader's resource manager picks the new tasks up from the announcement.
 */
import {
  describeMaxRunningHold,
  type JobConfig,
  type JobConfigProblem,
  jobKind,
  MAX_RUNNING_INSTANCES_REASON,
  ROOT_PATH,
  validateJobConfig,
} from "@peloton/engine";
import type { PoolRecord, Repositories, StorageGateway } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import { eligibleDaemonHosts } from "./daemon-hosts.ts";
import { firstImpossibleGang, type ImpossibleGang } from "./impossible-gangs.ts";
import { defaultGoalState, newTasksFor, queuedAtCreate } from "./new-tasks.ts";

export interface JobSubmission {
  config: JobConfig;
  /** The text as the user wrote it, stored beside the parsed config. */
  configYaml: string;
  /** The pool; when absent, the config's `respoolId`. */
  poolPath?: string | undefined;
  /** Who submits it: recorded as the job's `submittedBy` and in the audit row. */
  acting: Acting;
}

export type CreateJobFailure =
  | { kind: "invalid"; problems: JobConfigProblem[] }
  | { kind: "no_pool" }
  | { kind: "pool_not_found"; path: string }
  | { kind: "pool_not_leaf"; path: string }
  /** A gang of it could never run in this pool on these hosts (impossible-gangs.ts). */
  | ({ kind: "never_fits"; path: string } & ImpossibleGang);

export type CreateJobResult =
  | { ok: true; jobId: string; instances: number; poolPath: string }
  | { ok: false; failure: CreateJobFailure };

/** Tasks written per statement for very large jobs. */
const INSERT_CHUNK = 10_000;

export async function createJob(
  gateway: StorageGateway,
  submission: JobSubmission,
): Promise<CreateJobResult> {
  const { config } = submission;
  const problems = validateJobConfig(config);
  if (problems.length > 0) return { ok: false, failure: { kind: "invalid", problems } };
  const path = submission.poolPath ?? config.respoolId?.value;
  if (!path) return { ok: false, failure: { kind: "no_pool" } };

  return gateway.transaction(async (tx) => {
    const pool = await leafPool(tx, path);
    if (!pool.ok) return { ok: false, failure: pool.failure };
    const instances = await instancesOf(tx, config);
    const impossible = await firstImpossibleGang(
      tx,
      config,
      pool.pool,
      pool.pools,
      Array.from({ length: instances.count }, (_, i) => i),
    );
    if (impossible)
      return { ok: false, failure: { kind: "never_fits", path: pool.pool.path, ...impossible } };
    const kind = jobKind(config);
    const job = await tx.jobs.create({
      name: config.name,
      type: kind,
      poolId: pool.pool.id,
      owner: config.owner ?? submission.acting.login,
      submittedBy: submission.acting.login,
      owningTeam: config.owningTeam,
      labels: config.labels,
      priority: config.sla.priority,
      preemptible: config.sla.preemptible,
      revocable: config.sla.revocable,
      configYaml: submission.configYaml,
      config,
      state: "PENDING",
      goalState: defaultGoalState(config),
      instanceCount: instances.count,
    });
    const all = Array.from({ length: instances.count }, (_, i) => i);
    // sla.maximumRunningInstances: the first N are queued, the rest wait INITIALIZED.
    const queued = queuedAtCreate(config, instances.count);
    const tasks = newTasksFor(job.id, config, all, instances.pinned, queued);
    for (let i = 0; i < tasks.length; i += INSERT_CHUNK) {
      await tx.tasks.insertMany(tasks.slice(i, i + INSERT_CHUNK));
    }
    const submitted = `job submitted by ${submission.acting.login}`;
    await tx.tasks.recordCreated(job.id, queued === tasks.length ? "all" : all.slice(0, queued), {
      source: EVENT_SOURCES.jobManager,
      reason: "CREATED",
      message: `${submitted}; queued for admission in pool ${pool.pool.path}`,
    });
    if (queued < tasks.length)
      await tx.tasks.recordCreated(job.id, all.slice(queued), {
        source: EVENT_SOURCES.jobManager,
        reason: MAX_RUNNING_INSTANCES_REASON,
        message: `${submitted}; ${describeMaxRunningHold(config.sla.maximumRunningInstances)}`,
      });
    await tx.jobs.addTaskCounts([
      { jobId: job.id, state: "PENDING", delta: queued },
      ...(queued < tasks.length
        ? [{ jobId: job.id, state: "INITIALIZED" as const, delta: tasks.length - queued }]
        : []),
    ]);
    await tx.audit.record({
      actor: submission.acting.login,
      via: submission.acting.via,
      action: "job.create",
      targetType: "job",
      targetId: job.id,
      after: { name: config.name, type: kind, pool: pool.pool.path, instances: tasks.length },
    });
    await tx.changes.announce(
      { topic: "jobs", keys: [job.id] },
      { topic: "tasks", keys: [`${job.id}/*`] },
      { topic: "pools", keys: [pool.pool.path] },
    );
    return { ok: true, jobId: job.id, instances: tasks.length, poolPath: pool.pool.path };
  });
}

/** Jobs are submitted only to leaf pools (peloton-semantics.md §2); the root never is one. */
async function leafPool(
  tx: Repositories,
  path: string,
): Promise<
  | { ok: true; pool: PoolRecord; pools: readonly PoolRecord[] }
  | { ok: false; failure: CreateJobFailure }
> {
  const pools = await tx.pools.listAll();
  const pool = pools.find((p) => p.path === path);
  if (!pool) return { ok: false, failure: { kind: "pool_not_found", path } };
  if (path === ROOT_PATH || pools.some((p) => p.parentId === pool.id))
    return { ok: false, failure: { kind: "pool_not_leaf", path } };
  return { ok: true, pool, pools };
}

/** A DAEMON job gets one instance per eligible host, each pinned to it; others their instance count. */
async function instancesOf(
  tx: Repositories,
  config: JobConfig,
): Promise<{ count: number; pinned?: Map<number, string> }> {
  if (config.type !== "DAEMON") return { count: config.instanceCount };
  const hosts = await tx.hosts.list({ states: ["UP"], limit: 100_000 });
  const eligible = eligibleDaemonHosts(
    config,
    hosts.items.map((h) => ({
      hostname: h.hostname,
      attributes: h.attributes,
      total: { cpu: h.cpu, gpu: h.gpu, memory: h.memMb, disk: h.diskMb },
    })),
  );
  return { count: eligible.length, pinned: new Map(eligible.map((host, i) => [i, host])) };
}
