import { CONNECTION_WAIT_MS, type Db } from "./client.ts";
import { admissionReadsRepository } from "./repositories/admission-reads.ts";
import { attentionReadsRepository } from "./repositories/attention-reads.ts";
import { auditRepository } from "./repositories/audit.ts";
import { changesRepository } from "./repositories/changes.ts";
import { clusterIdentityRepository } from "./repositories/cluster-identity.ts";
import { entitlementSamplesRepository } from "./repositories/entitlement-samples.ts";
import { hostMaintenanceRepository } from "./repositories/host-maintenance.ts";
import { hostsRepository } from "./repositories/hosts.ts";
import { identityRepository } from "./repositories/identity.ts";
import { jobConfigVersionsRepository } from "./repositories/job-config-versions.ts";
import { jobUpdatesRepository } from "./repositories/job-updates.ts";
import { jobsRepository } from "./repositories/jobs.ts";
import { overviewRepository } from "./repositories/overview.ts";
import { placementReadsRepository } from "./repositories/placement-reads.ts";
import { poolHistoryRepository } from "./repositories/pool-history.ts";
import { poolsRepository } from "./repositories/pools.ts";
import { preemptionsRepository } from "./repositories/preemptions/index.ts";
import { preemptorReadsRepository } from "./repositories/preemptor-reads.ts";
import { searchReadsRepository } from "./repositories/search-reads.ts";
import { taskChangesRepository } from "./repositories/task-changes.ts";
import { taskHistoryRepository } from "./repositories/task-history.ts";
import { taskIntentsRepository } from "./repositories/task-intents.ts";
import { taskReadsRepository } from "./repositories/task-reads.ts";
import { taskRunsRepository } from "./repositories/task-runs.ts";
import { taskStatusRepository } from "./repositories/task-status.ts";
import { taskUsageRepository } from "./repositories/task-usage.ts";
import { tasksRepository } from "./repositories/tasks.ts";
import { updateInstancesRepository } from "./repositories/update-instances.ts";
import { volumeReadsRepository } from "./repositories/volume-reads.ts";
import { volumesRepository } from "./repositories/volumes.ts";
import { type RetryPolicy, retryTransientConflicts } from "./retry.ts";
import type { DbOrTx } from "./tx.ts";

function repositories(db: DbOrTx) {
  return {
    pools: poolsRepository(db),
    poolHistory: poolHistoryRepository(db),
    entitlementSamples: entitlementSamplesRepository(db),
    jobs: jobsRepository(db),
    configVersions: jobConfigVersionsRepository(db),
    updates: jobUpdatesRepository(db),
    updateInstances: updateInstancesRepository(db),
    tasks: tasksRepository(db),
    taskStatus: taskStatusRepository(db),
    taskReads: taskReadsRepository(db),
    taskHistory: taskHistoryRepository(db),
    taskChanges: taskChangesRepository(db),
    taskIntents: taskIntentsRepository(db),
    taskRuns: taskRunsRepository(db),
    taskUsage: taskUsageRepository(db),
    admissionReads: admissionReadsRepository(db),
    placementReads: placementReadsRepository(db),
    volumes: volumesRepository(db),
    volumeReads: volumeReadsRepository(db),
    cluster: clusterIdentityRepository(db),
    hosts: hostsRepository(db),
    hostMaintenance: hostMaintenanceRepository(db),
    preemptions: preemptionsRepository(db),
    preemptorReads: preemptorReadsRepository(db),
    overview: overviewRepository(db),
    attention: attentionReadsRepository(db),
    searchReads: searchReadsRepository(db),
    audit: auditRepository(db),
    identity: identityRepository(db),
    changes: changesRepository(db),
  };
}

export type Repositories = ReturnType<typeof repositories>;

/**
 * The storage gateway: the only way the rest of the system reads and writes
 * PostgreSQL. `transaction` hands the callback the same repositories bound to
 * one transaction, so a state change and its event row commit together.
 */
export interface StorageGateway extends Repositories {
  /**
   * `fn` in one transaction, run again (bounded, jittered) when PostgreSQL
   * aborts it for a deadlock or a serialization failure; so `fn` must act
   * only through `tx` (see retry.ts).
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Reads that must agree with each other (a decision made on several of
   * them): one read-only transaction at REPEATABLE READ, so every read in
   * `fn` sees the database as it was at the first one. Writes are refused.
   */
  snapshot<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Cheap liveness probe for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /** How transactions are retried after deadlocks and serialization failures. */
  retry?: RetryPolicy;
}

export function createGateway(db: Db, opts: GatewayOptions = {}): StorageGateway {
  return {
    ...repositories(db),
    // maxWait: Prisma's default (2 s) fails transactions of a busy scheduler that
    // would have had a connection moments later; wait as long as the pool does.
    transaction: (fn) =>
      retryTransientConflicts(
        () =>
          db.$transaction((tx) => fn(repositories(tx)), {
            timeout: 30_000,
            maxWait: CONNECTION_WAIT_MS,
          }),
        opts.retry,
      ),
    snapshot: (fn) =>
      retryTransientConflicts(
        () =>
          db.$transaction(
            async (tx) => {
              // Before any read: the snapshot is taken by the first statement after it.
              await tx.$executeRaw`SET TRANSACTION READ ONLY`;
              return fn(repositories(tx));
            },
            { timeout: 30_000, maxWait: CONNECTION_WAIT_MS, isolationLevel: "RepeatableRead" },
          ),
        opts.retry,
      ),
    ping: async () => {
      await db.$queryRaw`SELECT 1`;
    },
    close: () => db.$disconnect(),
  };
}
