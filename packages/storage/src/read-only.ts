/**
 * The read-only view of the storage gateway, for the API's resolvers: reads
 * stay direct (any replica can serve them, leader or not), writes go through
 * the scheduler's services, which own them (ARCHITECTURE.md, "writes go
 * through the component that owns them").
 *
 * The read methods are listed once, as data: the type is derived from the
 * list, so a resolver calling a write does not compile, and `readOnlyView`
 * builds an object holding only these methods, so a cast cannot reach a
 * write at run time either. A new read method the API needs is added here.
 */
import type { Repositories, StorageGateway } from "./gateway.ts";

const READ_METHODS = {
  attention: ["hostsNotUp", "crashLoopingJobs", "stuckPendingJobs", "failedUpdates"],
  audit: ["list", "facets"],
  cluster: ["framework", "lease"],
  hosts: ["capacity", "get", "list", "attributeValues", "search"],
  hostMaintenance: ["tasksOn", "history", "evictionCandidates"],
  identity: [
    "userByLogin",
    "userById",
    "listUsers",
    "userCount",
    "listTeams",
    "teamByName",
    "listTokens",
  ],
  jobs: ["get", "getDetail", "list", "search", "countByState", "poolFacts"],
  configVersions: ["list", "get"],
  updates: ["get", "activeForJob", "listForJob", "events"],
  overview: ["clusterSummary"],
  pools: ["getByPath", "facts", "listAll", "search", "count", "jobCounts"],
  searchReads: [
    "jobsByIdRange",
    "jobsByName",
    "jobsByOwner",
    "jobsByLabel",
    "taskByMesosId",
    "taskByInstance",
    "volumesByIdPrefix",
    "jobNames",
  ],
  preemptions: ["list", "get", "earliestAt", "countsByPool", "exportBatches"],
  taskHistory: ["runs", "events", "jobEvents"],
  taskReads: ["list", "runtimes", "get", "waitingReasons", "firstWaiting"],
  volumeReads: ["list", "forInstance", "facets"],
} as const satisfies { [K in keyof Repositories]?: readonly (keyof Repositories[K])[] };

type ReadRepository = keyof typeof READ_METHODS;

/** The repositories' read methods, and nothing that writes. */
export type ReadOnlyRepositories = {
  readonly [K in ReadRepository]: Pick<
    Repositories[K],
    Extract<(typeof READ_METHODS)[K][number], keyof Repositories[K]>
  >;
};

export interface ReadOnlyGateway extends ReadOnlyRepositories {
  /** Reads that must agree with each other: one read-only REPEATABLE READ transaction. */
  snapshot<T>(fn: (tx: ReadOnlyRepositories) => Promise<T>): Promise<T>;
  /** Cheap liveness probe for health checks. */
  ping(): Promise<void>;
}

function pick(repos: Repositories): ReadOnlyRepositories {
  const view: Record<string, Record<string, unknown>> = {};
  for (const [name, methods] of Object.entries(READ_METHODS)) {
    const repo = repos[name as ReadRepository] as unknown as Record<string, unknown>;
    const reads: Record<string, unknown> = {};
    for (const m of methods) reads[m] = (repo[m] as (...a: unknown[]) => unknown).bind(repo);
    view[name] = reads;
  }
  return view as unknown as ReadOnlyRepositories;
}

/** `gateway` with only its read methods: no `transaction`, no write, no `close`. */
export function readOnlyView(gateway: StorageGateway): ReadOnlyGateway {
  return {
    ...pick(gateway),
    snapshot: (fn) => gateway.snapshot((tx) => fn(pick(tx))),
    ping: () => gateway.ping(),
  };
}
