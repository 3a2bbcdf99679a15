/**
 * peloton.api.v1alpha.respool.svc.ResourcePoolService over the pools
 * router, with the calls and mapping of v0's ResourceManager
 * (respool/pools.ts): a pool's ResourcePoolID is its path ("/infra/batch"),
 * an empty one the root; a new pool's path is its parent's plus `spec.name`.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import {
  type ResourcePoolInfoSchema,
  ResourcePoolSpecSchema,
} from "../generated/peloton/api/v1alpha/respool/respool_pb.ts";
import { ResourcePoolService } from "../generated/peloton/api/v1alpha/respool/svc/respool_svc_pb.ts";
import {
  allPools,
  createPool,
  deletePool,
  getPool,
  lookUpPool,
  type PoolFacts,
  ROOT,
  submittedConfig,
  updatePool,
} from "../respool/pools.ts";
import { pelotonMessage } from "../v0/config.ts";

function poolInfo(pool: PoolFacts): MessageInitShape<typeof ResourcePoolInfoSchema> {
  return {
    respoolId: { value: pool.path },
    path: { value: pool.path },
    ...(pool.parentPath === null ? {} : { parent: { value: pool.parentPath } }),
    children: pool.children.map((value) => ({ value })),
    spec: pelotonMessage(ResourcePoolSpecSchema, pool.config),
    usages: pool.usage,
  };
}

const handlers: Implementation<typeof ResourcePoolService> = {
  async createResourcePool(req, { caller }) {
    if (req.respoolId?.value)
      throw unimplemented(
        "respoolId: a pool's id is its path here, made from spec.parent and spec.name; leave respoolId empty",
      );
    if (!req.spec) throw invalidArgument("spec", "a pool needs its spec");
    const path = await createPool(
      caller,
      { id: req.spec.parent?.value, field: "spec.parent.value" },
      req.spec.name,
      submittedConfig(ResourcePoolSpecSchema, req.spec),
    );
    return { respoolId: { value: path } };
  },

  async getResourcePool(req, { caller }) {
    const got = await getPool(
      caller,
      { value: req.respoolId?.value, field: "respoolId.value" },
      req.includeChildPools,
    );
    return { respool: poolInfo(got.pool), childRespools: got.children.map(poolInfo) };
  },

  async deleteResourcePool(req, { caller }) {
    const path = req.respoolId?.value ?? "";
    if (path === "" || path === ROOT)
      throw invalidArgument("respoolId.value", "name the pool to delete (the root stays)");
    await deletePool(caller, path);
    return {};
  },

  async updateResourcePool(req, { caller }) {
    if (!req.spec) throw invalidArgument("spec", "an update needs the pool's new spec");
    await updatePool(
      caller,
      { value: req.respoolId?.value, field: "respoolId.value" },
      submittedConfig(ResourcePoolSpecSchema, req.spec),
      req.Force,
    );
    return {};
  },

  async lookupResourcePoolID(req, { caller }) {
    return { respoolId: { value: await lookUpPool(caller, req.path?.value ?? "") } };
  },

  async queryResourcePools(_req, { caller }) {
    return { respools: (await allPools(caller)).map(poolInfo) };
  },
};

export const resourcePoolService = serve(
  ResourcePoolService,
  handlers,
  (m) => `ResourcePoolService.${m.name} is not served yet`,
  { CreateResourcePool: "spec.", UpdateResourcePool: "spec." },
);
