/**
 * peloton.api.v1alpha.host.svc.HostService over the hosts router, through
 * the calls both versions share (src/hosts/hosts.ts): QueryHosts lists
 * hosts as `peloton host list` does, StartMaintenance and
 * CompleteMaintenance are `peloton host maintenance start|complete`. A LOST
 * host (its agent gone, which Peloton does not tell apart) reads
 * HOST_STATE_UNKNOWN. Host pools do not exist here.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { HostService } from "../generated/peloton/api/v1alpha/host/svc/host_svc_pb.ts";
import { maintenance, missingHostMethod, queryHosts } from "../hosts/hosts.ts";

const handlers: Implementation<typeof HostService> = {
  async queryHosts(req, { caller }) {
    return { hostInfos: await queryHosts(caller, req.hostStates) };
  },
  startMaintenance: (req, { caller }) => maintenance(caller, "start", req),
  completeMaintenance: (req, { caller }) => maintenance(caller, "complete", req),
};

export const hostService = serve(HostService, handlers, (m: DescMethod) =>
  missingHostMethod(m.name),
);
