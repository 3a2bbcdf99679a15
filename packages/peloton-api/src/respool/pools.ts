/**
 * Resource pools as both of Peloton's API versions see them, over the pools
 * router: v0's ResourceManager and v1alpha's ResourcePoolService differ only
 * in their messages' names (config/spec, id/respool_id, changeLog/revision),
 * so the calls and the mapping live here once and each service only names
 * its fields. A pool's ResourcePoolID is its path here ("/infra/batch").
 *
 * Configs travel as protobuf JSON with enums as numbers: Peloton gives its
 * reservation types and scheduling policy the same numbers in both versions
 * (v0 `ELASTIC = 1`, v1alpha `RESERVATION_TYPE_ELASTIC = 1`) and our router
 * reads either a name or a number, so one JSON fits both messages.
 */
import { type DescMessage, type MessageShape, toJson } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { RESERVATION_TYPE_NUMBERS, RESOURCE_KINDS } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";

type PoolTree = inferRouterOutputs<AppRouter>["pools"]["tree"];
type PoolView = PoolTree["pools"][number];
type PoolConfigInput = Parameters<Caller["pools"]["create"]>[0]["config"];

export const ROOT = "/";

/** Peloton's only scheduling policy, PriorityFIFO, in both versions. */
const PRIORITY_FIFO = 1;

/** Fields a client may send that the path or the server sets: left out of what is submitted. */
const NOT_SUBMITTED = ["changeLog", "revision", "parent"];

/** A pool and its place in the tree, in neither version's message yet. */
export interface PoolFacts {
  path: string;
  /** Null for the root. */
  parentPath: string | null;
  children: string[];
  /** Peloton's pool config as protobuf JSON (v0 ResourcePoolConfig, v1alpha ResourcePoolSpec). */
  config: Record<string, unknown>;
  usage: { kind: string; allocation: number; slack: number }[];
}

/** A pool id as we read it: a path; empty is the root (Peloton's default). */
export function poolPath(value: string | undefined, field: string): string {
  if (!value) return ROOT;
  if (!value.startsWith("/"))
    throw invalidArgument(
      field,
      `a resource pool id is the pool's path here, such as /infra/batch (LookupResourcePoolID returns it); got "${value}"`,
    );
  return value;
}

function childPath(parent: string, name: string): string {
  return parent === ROOT ? `/${name}` : `${parent}/${name}`;
}

/** Peloton's config message (either version) as our router's input. */
export function submittedConfig<D extends DescMessage>(
  schema: D,
  config: MessageShape<D>,
): PoolConfigInput {
  const json = toJson(schema, config, { enumAsInteger: true }) as Record<string, unknown>;
  for (const key of NOT_SUBMITTED) delete json[key];
  // The router checks every field and names the ones it refuses.
  return json as unknown as PoolConfigInput;
}

function facts(tree: PoolTree, pool: PoolView): PoolFacts {
  return {
    path: pool.path,
    parentPath: pool.parentPath,
    children: tree.pools.filter((p) => p.parentPath === pool.path).map((p) => p.path),
    config: {
      name: pool.name,
      owningTeam: pool.owningTeam,
      ldapGroups: pool.ldapGroups,
      description: pool.description,
      resources: RESOURCE_KINDS.map((kind) => {
        const r = pool.resources[kind];
        return {
          kind,
          reservation: r.reservation,
          limit: r.limit,
          share: r.share,
          type: RESERVATION_TYPE_NUMBERS[r.type],
        };
      }),
      parent: { value: pool.parentPath },
      policy: PRIORITY_FIFO,
      ...(pool.controllerLimitMaxPercent === null
        ? {}
        : { controllerLimit: { maxPercent: pool.controllerLimitMaxPercent } }),
      slackLimit: { maxPercent: pool.slackLimitMaxPercent },
    },
    usage: RESOURCE_KINDS.map((kind) => ({
      kind,
      allocation: pool.resources[kind].allocation,
      slack: pool.resources[kind].slackAllocation,
    })),
  };
}

/** The root as Peloton shows it: a pool named root whose children are the top pools. */
function rootFacts(tree: PoolTree): PoolFacts {
  return {
    path: ROOT,
    parentPath: null,
    children: tree.pools.filter((p) => p.parentPath === ROOT).map((p) => p.path),
    config: { name: "root" },
    usage: [],
  };
}

/** Creates `config` under the pool `parentId` names; answers the new pool's path (its id). */
export async function createPool(
  caller: Caller,
  parent: { id: string | undefined; field: string },
  name: string,
  config: PoolConfigInput,
): Promise<string> {
  const path = childPath(poolPath(parent.id, parent.field), name);
  const created = await caller.pools.create({ path, config });
  return created.path;
}

/** The pool `id` names (the root when empty), and its children's when asked. */
export async function getPool(
  caller: Caller,
  id: { value: string | undefined; field: string },
  includeChildren: boolean,
): Promise<{ pool: PoolFacts; children: PoolFacts[] }> {
  const path = poolPath(id.value, id.field);
  const tree = await caller.pools.tree();
  const pool = tree.pools.find((p) => p.path === path);
  if (path !== ROOT && !pool) await caller.pools.get({ path }); // the router's NOT_FOUND
  const children = includeChildren
    ? tree.pools.filter((p) => p.parentPath === path).map((p) => facts(tree, p))
    : [];
  return { pool: pool ? facts(tree, pool) : rootFacts(tree), children };
}

/** Replaces the pool's config, at the version it has now (Peloton's update has no version). */
export async function updatePool(
  caller: Caller,
  id: { value: string | undefined; field: string },
  config: PoolConfigInput,
  force: boolean,
): Promise<void> {
  if (force) throw unimplemented("Force: forcing a pool change past its rules is not supported");
  const path = poolPath(id.value, id.field);
  const pool = await caller.pools.get({ path }); // NOT_FOUND, named by the router
  await caller.pools.update({ path, version: pool.version, config });
}

export async function deletePool(caller: Caller, path: string): Promise<void> {
  await caller.pools.delete({ path });
}

/** A path's id (the path itself), once the router has found the pool. */
export async function lookUpPool(caller: Caller, path: string): Promise<string> {
  if (path === ROOT) return ROOT;
  await caller.pools.get({ path }); // NOT_FOUND, or a bad path named, from the router
  return path;
}

export async function allPools(caller: Caller): Promise<PoolFacts[]> {
  const tree = await caller.pools.tree();
  return tree.pools.map((p) => facts(tree, p));
}
