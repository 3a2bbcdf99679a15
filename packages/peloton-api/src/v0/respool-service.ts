/**
 * peloton.api.v0.respool.ResourcePoolService, Peloton's newer spelling of
 * ResourceManager, over the same v0 calls (resource-manager.ts) and pool
 * mapping (respool/pools.ts). Pools are named by their
 * ResourcePoolID (the path) here, DeleteResourcePool too.
 */
import { type Implementation, serve } from "../calls/registry.ts";
import { unimplemented } from "../calls/status.ts";
import { ResourcePoolService } from "../generated/peloton/api/v0/respool/svc/respool_svc_pb.ts";
import { deletePool, lookUpPool, poolPath } from "../respool/pools.ts";
import { allV0Pools, createV0Pool, getV0Pool, updateV0Pool } from "./resource-manager.ts";

const handlers: Implementation<typeof ResourcePoolService> = {
  async createResourcePool(req, { caller }) {
    if (req.id?.value)
      throw unimplemented(
        "id: a pool's id is its path here, chosen from config.parent and config.name; leave id empty",
      );
    return { id: { value: await createV0Pool(caller, req.config) } };
  },

  async getResourcePool(req, { caller }) {
    const { info, children } = await getV0Pool(caller, req.id?.value, req.includeChildPools);
    return { resPool: info, childResPools: children };
  },

  async deleteResourcePool(req, { caller }) {
    // An empty id is not the root here: the router refuses the missing path, naming it.
    await deletePool(caller, req.id?.value ? poolPath(req.id.value, "id.value") : "");
    return {};
  },

  async updateResourcePool(req, { caller }) {
    await updateV0Pool(caller, req);
    return {};
  },

  async lookupResourcePoolID(req, { caller }) {
    return { id: { value: await lookUpPool(caller, req.path?.value ?? "") } };
  },

  async queryResourcePools(_req, { caller }) {
    return { resPools: await allV0Pools(caller) };
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
