/**
 * peloton.api.v1alpha.host.svc.HostService over the hosts router
 * (docs/host-maintenance.md): QueryHosts lists hosts as `peloton host list`
 * does, StartMaintenance and CompleteMaintenance are `peloton host
 * maintenance start|complete`. A LOST host (its agent gone, which Peloton
 * does not tell apart) reads HOST_STATE_UNKNOWN. Host pools do not exist
 * here.
 */
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";
import { HOST_STATES, type HostState as OurHostState } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument } from "../calls/status.ts";
import { type HostInfoSchema, HostState } from "../generated/peloton/api/v1alpha/host/host_pb.ts";
import { HostService } from "../generated/peloton/api/v1alpha/host/svc/host_svc_pb.ts";

type HostListed = Awaited<ReturnType<Caller["hosts"]["list"]>>["items"][number];

/** Hosts per read of the router's list (its maximum). */
const PAGE = 500;

function hostState(ours: OurHostState): HostState {
  return ours === "LOST" ? HostState.UNKNOWN : HostState[ours];
}

function ourStates(states: readonly HostState[]): OurHostState[] {
  return states.flatMap((s, i): OurHostState[] => {
    if (s === HostState.UNKNOWN) return ["LOST"];
    const name = HostState[s];
    if (!(HOST_STATES as readonly string[]).includes(name ?? ""))
      throw invalidArgument(`hostStates[${i}]`, `no host state ${name ?? s}`);
    return [name as OurHostState];
  });
}

function hostInfo(h: HostListed): MessageInitShape<typeof HostInfoSchema> {
  return {
    hostname: h.hostname,
    ip: h.ip ?? "",
    state: hostState(h.state),
    goalState: hostState(h.goalState),
    labels: Object.entries(h.attributes).map(([key, value]) => ({ key, value })),
  };
}

/** The one host a maintenance request names: `hostname`, or the deprecated list's only entry. */
function oneHost(req: { hostname: string; hostnames: string[] }): string {
  if (req.hostname) {
    if (req.hostnames.length)
      throw invalidArgument(
        "hostnames",
        "give the host in hostname only (hostnames is deprecated)",
      );
    return req.hostname;
  }
  if (req.hostnames.length > 1)
    throw invalidArgument(
      "hostnames",
      "one host per call: give it in hostname (hostnames is deprecated)",
    );
  return req.hostnames[0] ?? ""; // empty: the router names `hostname`
}

const handlers: Implementation<typeof HostService> = {
  async queryHosts(req, { caller }) {
    const states = ourStates(req.hostStates);
    const hosts: HostListed[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<Caller["hosts"]["list"]>> = await caller.hosts.list({
        states,
        limit: PAGE,
        cursor,
      });
      hosts.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return { hostInfos: hosts.map(hostInfo) };
  },

  async startMaintenance(req, { caller }) {
    const host = await caller.hosts.startMaintenance({ hostname: oneHost(req) });
    return { hostname: host.hostname };
  },

  async completeMaintenance(req, { caller }) {
    const host = await caller.hosts.completeMaintenance({ hostname: oneHost(req) });
    return { hostname: host.hostname };
  },
};

const NO_HOST_POOLS =
  "host pools are not supported by this scheduler: every host serves every resource pool (constrain placement with host attributes instead)";

export const hostService = serve(HostService, handlers, (m: DescMethod) =>
  m.name.endsWith("HostPool") || m.name === "ListHostPools"
    ? `HostService.${m.name}: ${NO_HOST_POOLS}`
    : `HostService.${m.name} is not served yet`,
);
