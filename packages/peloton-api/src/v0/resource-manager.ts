/**
 * peloton.api.v0.respool.ResourceManager over the pools router, through the
 * calls and mapping v1alpha's ResourcePoolService shares (respool/pools.ts).
 * A pool's ResourcePoolID is its path here ("/infra/batch"):
 * LookupResourcePoolID returns it, and every id a client sends back is read
 * as one.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Caller } from "../calls/deps.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument } from "../calls/status.ts";
import {
  ResourceManager,
  type ResourcePoolConfig,
  ResourcePoolConfigSchema,
  type ResourcePoolInfoSchema,
} from "../generated/peloton/api/v0/respool/respool_pb.ts";
import {
  allPools,
  createPool,
  deletePool,
  getPool,
  lookUpPool,
  type PoolFacts,
  submittedConfig,
  updatePool,
} from "../respool/pools.ts";
import { pelotonMessage } from "./config.ts";

type PoolInfoInit = MessageInitShape<typeof ResourcePoolInfoSchema>;

function poolInfo(pool: PoolFacts): PoolInfoInit {
  return {
    id: { value: pool.path },
    path: { value: pool.path },
    ...(pool.parentPath === null ? {} : { parent: { value: pool.parentPath } }),
    children: pool.children.map((value) => ({ value })),
    config: pelotonMessage(ResourcePoolConfigSchema, pool.config),
    usage: pool.usage,
  };
}

/**
 * The v0 calls both spellings share: ResourceManager and
 * ResourcePoolService take the same config and ids and differ only in the
 * names of their answers' fields.
 */
export async function createV0Pool(
  caller: Caller,
  config: ResourcePoolConfig | undefined,
): Promise<string> {
  if (!config) throw invalidArgument("config", "a pool needs its config");
  return createPool(
    caller,
    { id: config.parent?.value, field: "config.parent.value" },
    config.name,
    submittedConfig(ResourcePoolConfigSchema, config),
  );
}

export async function getV0Pool(
  caller: Caller,
  id: string | undefined,
  includeChildPools: boolean,
): Promise<{ info: PoolInfoInit; children: PoolInfoInit[] }> {
  const got = await getPool(caller, { value: id, field: "id.value" }, includeChildPools);
  return { info: poolInfo(got.pool), children: got.children.map(poolInfo) };
}

export async function updateV0Pool(
  caller: Caller,
  req: {
    id?: { value: string } | undefined;
    config?: ResourcePoolConfig | undefined;
    Force: boolean;
  },
): Promise<void> {
  if (!req.config) throw invalidArgument("config", "an update needs the pool's new config");
  await updatePool(
    caller,
    { value: req.id?.value, field: "id.value" },
    submittedConfig(ResourcePoolConfigSchema, req.config),
    req.Force,
  );
}

export async function allV0Pools(caller: Caller): Promise<PoolInfoInit[]> {
  return (await allPools(caller)).map(poolInfo);
}

const handlers: Implementation<typeof ResourceManager> = {
  async createResourcePool(req, { caller }) {
    return { result: { value: await createV0Pool(caller, req.config) } };
  },

  async getResourcePool(req, { caller }) {
    const { info, children } = await getV0Pool(caller, req.id?.value, req.includeChildPools);
    return { poolinfo: info, childPools: children };
  },

  async deleteResourcePool(req, { caller }) {
    await deletePool(caller, req.path?.value ?? "");
    return {};
  },

  async updateResourcePool(req, { caller }) {
    await updateV0Pool(caller, req);
    return {};
  },

  async lookupResourcePoolID(req, { caller }) {
    return { id: { value: await lookUpPool(caller, req.path?.value ?? "") } };
  },

  async query(_req, { caller }) {
    return { resourcePools: await allV0Pools(caller) };
  },
};

export const resourceManager = serve(
  ResourceManager,
  handlers,
  (m) => `ResourceManager.${m.name} is not served yet`,
  { CreateResourcePool: "config.", UpdateResourcePool: "config." },
);
