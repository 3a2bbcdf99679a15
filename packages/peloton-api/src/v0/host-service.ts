/**
 * peloton.api.v0.host.svc.HostService over the hosts router
 * (docs/host-maintenance.md): QueryHosts lists the cluster's hosts by
 * state; StartMaintenance and CompleteMaintenance are the host manager's,
 * as `peloton host maintenance start|complete`. Host pools do not exist
 * here: their methods answer UNIMPLEMENTED.
 */
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import type { HostState as OurHostState } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { unimplemented } from "../calls/status.ts";
import { type HostInfoSchema, HostState } from "../generated/peloton/api/v0/host/host_pb.ts";
import { HostService } from "../generated/peloton/api/v0/host/svc/host_svc_pb.ts";

type HostListed = inferRouterOutputs<AppRouter>["hosts"]["list"]["items"][number];

/** Hosts per page of the router's list (its maximum). */
const PAGE = 500;

/** Peloton's host states are ours; our LOST (agent gone) is the one Peloton calls UNKNOWN. */
const OURS: Partial<Record<HostState, OurHostState>> = {
  [HostState.UP]: "UP",
  [HostState.DRAINING]: "DRAINING",
  [HostState.DRAINED]: "DRAINED",
  [HostState.DOWN]: "DOWN",
  [HostState.UNKNOWN]: "LOST",
};

function pelotonState(state: OurHostState): HostState {
  const found = Object.entries(OURS).find(([, ours]) => ours === state);
  return found ? (Number(found[0]) as HostState) : HostState.INVALID;
}

function hostInfo(h: HostListed): MessageInitShape<typeof HostInfoSchema> {
  return {
    hostname: h.hostname,
    ip: h.ip ?? "",
    state: pelotonState(h.state),
    goalState: pelotonState(h.goalState),
    labels: Object.entries(h.attributes).map(([key, value]) => ({ key, value })),
  };
}

async function allHosts(caller: Caller, states: OurHostState[]): Promise<HostListed[]> {
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
  return hosts;
}

/** The request's host: `hostname`, or the one deprecated `hostnames` entry older clients send. */
function oneHost(req: { hostname: string; hostnames: string[] }): string {
  if (req.hostname || req.hostnames.length === 0) return req.hostname;
  if (req.hostnames.length > 1)
    throw unimplemented(
      "hostnames: one host per call is supported; send each in `hostname` (Peloton's current field)",
    );
  return req.hostnames[0] ?? "";
}

const handlers: Implementation<typeof HostService> = {
  /** Every host, or those in `host_states` (INVALID matches none). */
  async queryHosts(req, { caller }) {
    const states = req.hostStates.flatMap((s) => {
      const ours = OURS[s];
      return ours ? [ours] : [];
    });
    if (req.hostStates.length && states.length === 0) return { hostInfos: [] };
    return { hostInfos: (await allHosts(caller, states)).map(hostInfo) };
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
  "host pools do not exist in this scheduler: every host offers to every resource pool (place work with constraints on host attributes)";

export const hostService = serve(HostService, handlers, (m: DescMethod) =>
  m.name.includes("HostPool") || m.name === "MoveHosts"
    ? `HostService.${m.name}: ${NO_HOST_POOLS}`
    : `HostService.${m.name} is not served yet`,
);
