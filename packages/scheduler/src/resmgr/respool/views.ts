/**
 * What the console and the CLI show of pools: per pool and kind its settings
 * beside what it is entitled to, holds and waits for; for one pool also why
 * (the calculator's steps) and how much room its parent has left.
 */
import {
  describeExplanation,
  type EntitlementResult,
  type ExplanationStep,
  explanationOf,
  findPool,
  listPools,
  type PoolNode,
  type ReservationType,
  type ResourceKind,
  type Resources,
  ROOT_PATH,
} from "@peloton/engine";
import type { PoolRecord } from "@peloton/storage";
import { configOf } from "./config.ts";
import { numbersOf } from "./entitlements.ts";
import type { PoolSnapshot } from "./snapshot.ts";

export interface PoolKindView {
  readonly reservation: number;
  readonly limit: number;
  readonly share: number;
  readonly type: ReservationType;
  readonly entitlement: number;
  /** Summed over the pool's subtree: non-revocable tasks' resources. */
  readonly allocation: number;
  readonly demand: number;
  /** Revocable tasks' resources held (slack). */
  readonly slackAllocation: number;
}

export interface PoolView {
  readonly id: string;
  readonly path: string;
  readonly name: string;
  /** The stored root's id for a pool under the root. */
  readonly parentId: string | null;
  readonly parentPath: string;
  /** 1 for a pool under the root. */
  readonly depth: number;
  readonly owningTeam: string;
  readonly ldapGroups: readonly string[];
  readonly description: string;
  readonly policy: number;
  readonly controllerLimitMaxPercent: number | null;
  readonly slackLimitMaxPercent: number;
  readonly version: number;
  readonly children: number;
  readonly jobs: number;
  readonly resources: Readonly<Record<ResourceKind, PoolKindView>>;
}

/** The root: the cluster's capacity (0 without hosts) and the usage of every pool together. */
export interface ClusterView {
  readonly hosts: number;
  readonly capacity: Resources;
  readonly allocation: Resources;
  readonly demand: Resources;
}

export interface PoolTreeView {
  readonly cluster: ClusterView;
  /** Parents before children, siblings in creation order. */
  readonly pools: PoolView[];
}

/** Per kind: what the parent reserves and allows, and what the pool's siblings reserve of it. */
export interface ParentRoom {
  readonly parentReservation: number;
  readonly siblingsReservation: number;
  readonly parentLimit: number;
}

export interface KindExplanation {
  readonly steps: readonly ExplanationStep[];
  readonly summary: string;
}

/** One kind on the pool's page: also how the entitlement splits for revocable tasks. */
export interface PoolKindDetail extends PoolKindView {
  /** What non-revocable tasks may use. */
  readonly nonSlackEntitlement: number;
  /** What revocable tasks may use (slack cpu, and memory/disk/gpu kept for them). */
  readonly slackEntitlement: number;
}

export interface PoolDetailView extends Omit<PoolView, "resources"> {
  readonly resources: Readonly<Record<ResourceKind, PoolKindDetail>>;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** The stored settings as a configuration: the edit form starts from it. */
  readonly config: ReturnType<typeof configOf>;
  readonly childPools: readonly {
    readonly id: string;
    readonly path: string;
    readonly name: string;
  }[];
  readonly room: Readonly<Record<ResourceKind, ParentRoom>>;
  readonly explanation: Readonly<Record<ResourceKind, KindExplanation>>;
  readonly cluster: ClusterView;
}

/** Per kind, for one pool's view (the tree's 1,000 rows build their objects directly: faster). */
function perKind<T>(f: (kind: ResourceKind) => T): Record<ResourceKind, T> {
  return { cpu: f("cpu"), gpu: f("gpu"), memory: f("memory"), disk: f("disk") };
}

function clusterView(snapshot: PoolSnapshot, result: EntitlementResult): ClusterView {
  const root = numbersOf(result, ROOT_PATH);
  return {
    hosts: snapshot.hosts,
    capacity: snapshot.capacity,
    allocation: root.allocation,
    demand: root.demand,
  };
}

function poolView(
  snapshot: PoolSnapshot,
  result: EntitlementResult,
  node: PoolNode<PoolRecord>,
): PoolView {
  const r = node.record!;
  const n = numbersOf(result, r.path);
  const kind = (k: ResourceKind): PoolKindView => {
    const c = r.resources[k];
    return {
      reservation: c.reservation,
      limit: c.limit,
      share: c.share,
      type: c.type,
      entitlement: n.entitlement[k],
      allocation: n.allocation[k],
      demand: n.demand[k],
      slackAllocation: n.slackAllocation[k],
    };
  };
  return {
    id: r.id,
    path: r.path,
    name: r.name,
    parentId: r.parentId ?? snapshot.root?.id ?? null,
    parentPath: node.parent?.path ?? ROOT_PATH,
    depth: node.depth,
    owningTeam: r.owningTeam,
    ldapGroups: r.ldapGroups,
    description: r.description,
    policy: r.policy,
    controllerLimitMaxPercent: r.controllerLimitMaxPercent,
    slackLimitMaxPercent: r.slackLimitMaxPercent,
    version: r.version,
    children: node.children.length,
    jobs: snapshot.jobs.get(r.path) ?? 0,
    resources: { cpu: kind("cpu"), gpu: kind("gpu"), memory: kind("memory"), disk: kind("disk") },
  };
}

export function poolTreeView(snapshot: PoolSnapshot, result: EntitlementResult): PoolTreeView {
  return {
    cluster: clusterView(snapshot, result),
    pools: listPools(snapshot.tree).map((node) => poolView(snapshot, result, node)),
  };
}

function parentRoom(snapshot: PoolSnapshot, node: PoolNode<PoolRecord>, kind: ResourceKind) {
  const parent = node.parent!;
  const siblingsReservation = parent.children
    .filter((c) => c !== node)
    .reduce((sum, c) => sum + (c.record?.resources[kind].reservation ?? 0), 0);
  const own = parent.record?.resources[kind];
  return {
    // The root's reservation and limit are the cluster capacity (peloton-semantics.md §1).
    parentReservation: own ? own.reservation : snapshot.capacity[kind],
    parentLimit: own ? own.limit : snapshot.capacity[kind],
    siblingsReservation,
  };
}

/** One pool with its explanation; null when the path names no pool (or the root). */
export function poolDetailView(
  snapshot: PoolSnapshot,
  result: EntitlementResult,
  path: string,
): PoolDetailView | null {
  const node = findPool(snapshot.tree, path);
  const r = node?.record;
  if (!node || !r) return null;
  const steps = explanationOf(result, path);
  const view = poolView(snapshot, result, node);
  const n = numbersOf(result, path);
  return {
    ...view,
    resources: perKind((k) => ({
      ...view.resources[k],
      nonSlackEntitlement: n.nonSlackEntitlement[k],
      slackEntitlement: n.slackEntitlement[k],
    })),
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    config: configOf(r),
    childPools: node.children.map((c) => ({ id: c.record!.id, path: c.path, name: c.name })),
    room: perKind((k) => parentRoom(snapshot, node, k)),
    explanation: perKind((k) => {
      const kindSteps = steps?.[k] ?? [];
      return { steps: kindSteps, summary: describeExplanation(kindSteps, k) };
    }),
    cluster: clusterView(snapshot, result),
  };
}
