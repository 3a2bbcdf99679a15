/** peloton.api.v0.respool.ResourceManager over the shared pool operations (pools.ts). */
import { type Implementation, serve } from "../calls/registry.ts";
import { ResourceManager } from "../generated/peloton/api/v0/respool/respool_pb.ts";
import { createPool, deletePool, getPool, lookupPool, queryPools, updatePool } from "./pools.ts";

const handlers: Implementation<typeof ResourceManager> = {
  async createResourcePool(req, { caller }) {
    return { result: { value: await createPool(caller, req.config) } };
  },

  async getResourcePool(req, { caller }) {
    const { info, children } = await getPool(caller, req.id, req.includeChildPools);
    return { poolinfo: info, childPools: children };
  },

  async deleteResourcePool(req, { caller }) {
    await deletePool(caller, req.path?.value ?? "");
    return {};
  },

  async updateResourcePool(req, { caller }) {
    await updatePool(caller, req);
    return {};
  },

  async lookupResourcePoolID(req, { caller }) {
    return { id: { value: await lookupPool(caller, req.path?.value ?? "") } };
  },

  async query(_req, { caller }) {
    return { resourcePools: await queryPools(caller) };
  },
};

export const resourceManager = serve(
  ResourceManager,
  handlers,
  (m) => `ResourceManager.${m.name} is not served yet`,
  { CreateResourcePool: "config.", UpdateResourcePool: "config." },
);
