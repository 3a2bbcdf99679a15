/**
 * peloton.api.v0.respool.ResourceManager over the pools router, through the
 * calls and mapping v1alpha's ResourcePoolService shares (respool/pools.ts).
 * A pool's ResourcePoolID is its path here ("/infra/batch"):
 * LookupResourcePoolID returns it, and every id a client sends back is read
 * as one.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument } from "../calls/status.ts";
import {
  ResourceManager,
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

export function poolInfo(pool: PoolFacts): MessageInitShape<typeof ResourcePoolInfoSchema> {
  return {
    id: { value: pool.path },
    path: { value: pool.path },
    ...(pool.parentPath === null ? {} : { parent: { value: pool.parentPath } }),
    children: pool.children.map((value) => ({ value })),
    config: pelotonMessage(ResourcePoolConfigSchema, pool.config),
    usage: pool.usage,
  };
}

const handlers: Implementation<typeof ResourceManager> = {
  async createResourcePool(req, { caller }) {
    if (!req.config) throw invalidArgument("config", "a pool needs its config");
    const path = await createPool(
      caller,
      { id: req.config.parent?.value, field: "config.parent.value" },
      req.config.name,
      submittedConfig(ResourcePoolConfigSchema, req.config),
    );
    return { result: { value: path } };
  },

  async getResourcePool(req, { caller }) {
    const got = await getPool(
      caller,
      { value: req.id?.value, field: "id.value" },
      req.includeChildPools,
    );
    return { poolinfo: poolInfo(got.pool), childPools: got.children.map(poolInfo) };
  },

  async deleteResourcePool(req, { caller }) {
    await deletePool(caller, req.path?.value ?? "");
    return {};
  },

  async updateResourcePool(req, { caller }) {
    if (!req.config) throw invalidArgument("config", "an update needs the pool's new config");
    await updatePool(
      caller,
      { value: req.id?.value, field: "id.value" },
      submittedConfig(ResourcePoolConfigSchema, req.config),
      req.Force,
    );
    return {};
  },

  async lookupResourcePoolID(req, { caller }) {
    return { id: { value: await lookUpPool(caller, req.path?.value ?? "") } };
  },

  async query(_req, { caller }) {
    return { resourcePools: (await allPools(caller)).map(poolInfo) };
  },
};

export const resourceManager = serve(
  ResourceManager,
  handlers,
  (m) => `ResourceManager.${m.name} is not served yet`,
  { CreateResourcePool: "config.", UpdateResourcePool: "config." },
);
