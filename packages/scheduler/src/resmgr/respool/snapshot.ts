/**
 * One consistent picture of the pool tree for a decision (STYLE.md §5):
 * the stored pools as the engine's tree, the cluster capacity and each pool's
 * usage and jobs. Validation, entitlements and previews all read a snapshot,
 * never the database directly.
 */
import {
  buildPoolTree,
  describeTreeBuildError,
  type PoolTree,
  type PoolUsageInput,
  type Resources,
  ROOT_PATH,
} from "@peloton/engine";
import type { PoolRecord, PoolUsage, Repositories } from "@peloton/storage";

export interface PoolSnapshot {
  /** Every stored pool but the root, in creation order. */
  readonly records: readonly PoolRecord[];
  /** The stored root (its id is the top-level pools' parent); null before it is created. */
  readonly root: PoolRecord | null;
  /** The engine's tree; a top-level pool's record has `parentId: null`, as the engine expects. */
  readonly tree: PoolTree<PoolRecord>;
  /** Sum of UP and DRAINING hosts: the root's entitlement, reservation and limit. */
  readonly capacity: Resources;
  readonly hosts: number;
  /** Per pool path, what its tasks wait for and hold (only leaves have any). */
  readonly usage: ReadonlyMap<string, PoolUsageInput>;
  /** Per pool path, its jobs that are not deleted. */
  readonly jobs: ReadonlyMap<string, number>;
}

export interface SnapshotParts {
  readonly pools: readonly PoolRecord[];
  readonly capacity: Resources;
  readonly hosts: number;
  readonly usage: readonly PoolUsage[];
  readonly jobs: ReadonlyMap<string, number>;
}

/**
 * Stored pools per repository object, reused while the tree's change mark is
 * the same (a pool edit is rare; usage, read every time, changes all along).
 * A transaction's repositories are new objects, so a change is always judged
 * against pools read inside its own transaction.
 */
const poolsCache = new WeakMap<object, { mark: string; pools: readonly PoolRecord[] }>();

async function storedPools(repo: Repositories["pools"]): Promise<readonly PoolRecord[]> {
  // The mark first: pools read after it are at least as new as it says.
  const mark = await repo.changeMark();
  const hit = poolsCache.get(repo);
  if (hit?.mark === mark) return hit.pools;
  const pools = await repo.listAll();
  poolsCache.set(repo, { mark, pools });
  return pools;
}

/**
 * Reads the parts (in parallel) and assembles them. A caller that already
 * read the usage (the preemptor, in the snapshot transaction its other
 * reads share) passes it.
 */
export async function loadPoolSnapshot(
  repos: Pick<Repositories, "pools" | "hosts" | "tasks">,
  opts: { usage?: readonly PoolUsage[] } = {},
): Promise<PoolSnapshot> {
  const [pools, cluster, usage, jobs] = await Promise.all([
    storedPools(repos.pools),
    repos.hosts.capacity(),
    opts.usage ?? repos.tasks.usageByPool(),
    repos.pools.jobCounts(),
  ]);
  return snapshotOf({ pools, capacity: cluster.capacity, hosts: cluster.hosts, usage, jobs });
}

/** Assembles a snapshot from stored rows (pure). Keys of `usage` and `jobs` are pool ids. */
export function snapshotOf(parts: SnapshotParts): PoolSnapshot {
  const root = parts.pools.find((p) => p.path === ROOT_PATH) ?? null;
  const records = parts.pools
    .filter((p) => p !== root)
    .map((p) => (root && p.parentId === root.id ? { ...p, parentId: null } : p));
  const pathById = new Map(records.map((r) => [r.id, r.path]));
  const usage = new Map<string, PoolUsageInput>();
  for (const u of parts.usage) {
    const path = pathById.get(u.poolId);
    if (path) usage.set(path, u);
  }
  const jobs = new Map<string, number>();
  for (const [id, n] of parts.jobs) {
    const path = pathById.get(id);
    if (path) jobs.set(path, n);
  }
  return {
    records,
    root,
    tree: treeOf(records),
    capacity: parts.capacity,
    hosts: parts.hosts,
    usage,
    jobs,
  };
}

/** The same snapshot with other pool records (a proposed change); usage and capacity stay. */
export function withRecords(snapshot: PoolSnapshot, records: readonly PoolRecord[]): PoolSnapshot {
  return { ...snapshot, records, tree: treeOf(records) };
}

function treeOf(records: readonly PoolRecord[]): PoolTree<PoolRecord> {
  const built = buildPoolTree(records);
  // The stored tree is built by validated changes only; a broken one is a bug to report loudly.
  if (!built.ok)
    throw new Error(
      `stored pool tree is broken: ${built.errors.map(describeTreeBuildError).join("; ")}`,
    );
  return built.tree;
}
