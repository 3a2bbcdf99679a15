/**
 * Peloton's v0 resource pool operations over the pools router, once:
 * ResourceManager and its newer spelling respool.svc.ResourcePoolService
 * map their requests onto these. A pool's ResourcePoolID is its path here
 * ("/infra/batch"): LookupResourcePoolID returns it, and every id a client
 * sends back is read as one.
 */
import { create, type MessageInitShape, toJson } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { RESOURCE_KINDS } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import type { ResourcePoolID } from "../generated/peloton/api/v0/peloton_pb.ts";
import {
  type ResourcePoolConfig,
  ResourcePoolConfigSchema,
  type ResourcePoolInfoSchema,
} from "../generated/peloton/api/v0/respool/respool_pb.ts";
import { pelotonMessage } from "./config.ts";

type PoolTree = inferRouterOutputs<AppRouter>["pools"]["tree"];
type PoolView = PoolTree["pools"][number];

const ROOT = "/";

/** A pool id as we read it: a path; empty is the root (Peloton's default). */
export function poolPath(id: ResourcePoolID | undefined, field: string): string {
  const value = id?.value ?? "";
  if (value === "") return ROOT;
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

/** Peloton's pool config as our router's input: server-set and path-given fields left out. */
function ourConfig(config: ResourcePoolConfig): Record<string, unknown> {
  const json = toJson(ResourcePoolConfigSchema, config) as Record<string, unknown>;
  delete json.changeLog;
  delete json.parent;
  return json;
}

function poolInfo(tree: PoolTree, pool: PoolView): MessageInitShape<typeof ResourcePoolInfoSchema> {
  return {
    id: { value: pool.path },
    path: { value: pool.path },
    parent: { value: pool.parentPath },
    children: tree.pools.filter((p) => p.parentPath === pool.path).map((p) => ({ value: p.path })),
    config: pelotonMessage(ResourcePoolConfigSchema, {
      name: pool.name,
      owningTeam: pool.owningTeam,
      ldapGroups: pool.ldapGroups,
      description: pool.description,
      resources: RESOURCE_KINDS.map((kind) => {
        const r = pool.resources[kind];
        return { kind, reservation: r.reservation, limit: r.limit, share: r.share, type: r.type };
      }),
      parent: { value: pool.parentPath },
      policy: "PriorityFIFO",
      ...(pool.controllerLimitMaxPercent === null
        ? {}
        : { controllerLimit: { maxPercent: pool.controllerLimitMaxPercent } }),
      slackLimit: { maxPercent: pool.slackLimitMaxPercent },
    }),
    usage: RESOURCE_KINDS.map((kind) => ({
      kind,
      allocation: pool.resources[kind].allocation,
      slack: pool.resources[kind].slackAllocation,
    })),
  };
}

/** The root as Peloton shows it: a pool named root whose children are the top pools. */
function rootInfo(tree: PoolTree): MessageInitShape<typeof ResourcePoolInfoSchema> {
  return {
    id: { value: ROOT },
    path: { value: ROOT },
    children: tree.pools.filter((p) => p.parentPath === ROOT).map((p) => ({ value: p.path })),
    config: create(ResourcePoolConfigSchema, { name: "root" }),
  };
}

async function findPool(caller: Caller, path: string) {
  const tree = await caller.pools.tree();
  return { tree, pool: tree.pools.find((p) => p.path === path) ?? null };
}

type PoolInfo = MessageInitShape<typeof ResourcePoolInfoSchema>;

/** A new pool under `config.parent` (the root when empty); its id, the path. */
export async function createPool(
  caller: Caller,
  config: ResourcePoolConfig | undefined,
): Promise<string> {
  if (!config) throw invalidArgument("config", "a pool needs its config");
  const parent = poolPath(config.parent, "config.parent.value");
  const path = childPath(parent, config.name);
  const created = await caller.pools.create({ path, config: ourConfig(config) as never });
  return created.path;
}

/** The pool at `id` (the root when empty) and, with `includeChildPools`, its children. */
export async function getPool(
  caller: Caller,
  id: ResourcePoolID | undefined,
  includeChildPools: boolean,
): Promise<{ info: PoolInfo; children: PoolInfo[] }> {
  const path = poolPath(id, "id.value");
  const { tree, pool } = await findPool(caller, path);
  if (path !== ROOT && !pool) await caller.pools.get({ path }); // the router's NOT_FOUND
  const info = pool ? poolInfo(tree, pool) : rootInfo(tree);
  const children = includeChildPools
    ? tree.pools.filter((p) => p.parentPath === path).map((p) => poolInfo(tree, p))
    : [];
  return { info, children };
}

export async function deletePool(caller: Caller, path: string): Promise<void> {
  await caller.pools.delete({ path });
}

export async function updatePool(
  caller: Caller,
  req: { id?: ResourcePoolID | undefined; config?: ResourcePoolConfig | undefined; Force: boolean },
): Promise<void> {
  if (req.Force)
    throw unimplemented("Force: forcing a pool change past its rules is not supported");
  if (!req.config) throw invalidArgument("config", "an update needs the pool's new config");
  const path = poolPath(req.id, "id.value");
  const { pool } = await findPool(caller, path);
  if (!pool) await caller.pools.get({ path }); // the router's NOT_FOUND
  await caller.pools.update({
    path,
    version: pool?.version ?? 1,
    config: ourConfig(req.config) as never,
  });
}

/** The id of the pool at `path`: the path itself, once the router found it. */
export async function lookupPool(caller: Caller, path: string): Promise<string> {
  if (path === ROOT) return ROOT;
  await caller.pools.get({ path }); // NOT_FOUND, or a bad path named, from the router
  return path;
}

export async function queryPools(caller: Caller): Promise<PoolInfo[]> {
  const tree = await caller.pools.tree();
  return tree.pools.map((p) => poolInfo(tree, p));
}
