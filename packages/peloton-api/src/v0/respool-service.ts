/**
 * peloton.api.v0.respool.ResourcePoolService, Peloton's newer spelling of
 * ResourceManager, over the same pool calls and mapping (respool/pools.ts,
 * poolInfo of resource-manager.ts). Pools are named by their
 * ResourcePoolID (the path) here, DeleteResourcePool too.
 */
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { ResourcePoolConfigSchema } from "../generated/peloton/api/v0/respool/respool_pb.ts";
import { ResourcePoolService } from "../generated/peloton/api/v0/respool/svc/respool_svc_pb.ts";
import {
  allPools,
  createPool,
  deletePool,
  getPool,
  lookUpPool,
  poolPath,
  submittedConfig,
  updatePool,
} from "../respool/pools.ts";
import { poolInfo } from "./resource-manager.ts";

const handlers: Implementation<typeof ResourcePoolService> = {
  async createResourcePool(req, { caller }) {
    if (req.id?.value)
      throw unimplemented(
        "id: a pool's id is its path here, chosen from config.parent and config.name; leave id empty",
      );
    if (!req.config) throw invalidArgument("config", "a pool needs its config");
    const path = await createPool(
      caller,
      { id: req.config.parent?.value, field: "config.parent.value" },
      req.config.name,
      submittedConfig(ResourcePoolConfigSchema, req.config),
    );
    return { id: { value: path } };
  },

  async getResourcePool(req, { caller }) {
    const got = await getPool(
      caller,
      { value: req.id?.value, field: "id.value" },
      req.includeChildPools,
    );
    return { resPool: poolInfo(got.pool), childResPools: got.children.map(poolInfo) };
  },

  async deleteResourcePool(req, { caller }) {
    // An empty id is not the root here: the router refuses the missing path, naming it.
    await deletePool(caller, req.id?.value ? poolPath(req.id.value, "id.value") : "");
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

  async queryResourcePools(_req, { caller }) {
    return { resPools: (await allPools(caller)).map(poolInfo) };
  },
};

export const resourcePoolServiceV0 = serve(
  ResourcePoolService,
  handlers,
  (m) => `ResourcePoolService.${m.name} is not served yet`,
  {
    CreateResourcePool: "config.",
    UpdateResourcePool: "config.",
    DeleteResourcePool: (field) => (field === "path" ? "id" : field),
  },
);
