/**
 * Hosts as both of Peloton's API versions see them, over the hosts router
 * (docs/host-maintenance.md): v0's and v1alpha's HostService take the same
 * requests (host states, a host name or the deprecated one-entry list) and
 * answer the same HostInfo, and the two protos number their host states
 * alike (HOST_STATE_UNKNOWN = 1 … HOST_STATE_DOWN = 5), so the calls and
 * the mapping live here once. Host pools do not exist here.
 */
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import type { HostState as OurHostState } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { collect } from "../calls/pages.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";

type HostListed = inferRouterOutputs<AppRouter>["hosts"]["list"]["items"][number];

/** Hosts per page of the router's list (its maximum). */
const PAGE = 500;

/**
 * Peloton's host state numbers (both versions) as ours. Our LOST (the agent
 * is gone) is what Peloton calls UNKNOWN; INVALID (0) has no host.
 */
const OURS: Record<number, OurHostState> = {
  1: "LOST",
  2: "UP",
  3: "DRAINING",
  4: "DRAINED",
  5: "DOWN",
};

function pelotonState(state: OurHostState): number {
  const found = Object.entries(OURS).find(([, ours]) => ours === state);
  return found ? Number(found[0]) : 0;
}

/** A host as either version's HostInfo: its attributes are its labels. */
export interface HostInfoFacts {
  hostname: string;
  ip: string;
  state: number;
  goalState: number;
  labels: { key: string; value: string }[];
}

function hostInfo(h: HostListed): HostInfoFacts {
  return {
    hostname: h.hostname,
    ip: h.ip ?? "",
    state: pelotonState(h.state),
    goalState: pelotonState(h.goalState),
    labels: Object.entries(h.attributes).map(([key, value]) => ({ key, value })),
  };
}

/** Every host, or those in `states` (a state no host can be in, INVALID, matches none). */
export async function queryHosts(
  caller: Caller,
  states: readonly number[],
): Promise<HostInfoFacts[]> {
  const ours = states.flatMap((s) => (OURS[s] ? [OURS[s]] : []));
  if (states.length > 0 && ours.length === 0) return [];
  const hosts = await collect((cursor) => caller.hosts.list({ states: ours, limit: PAGE, cursor }));
  return hosts.map(hostInfo);
}

/** The one host a maintenance request names: `hostname`, or the deprecated list's only entry. */
function oneHost(req: { hostname: string; hostnames: readonly string[] }): string {
  if (req.hostname) {
    if (req.hostnames.length)
      throw invalidArgument(
        "hostnames",
        "give the host in hostname only (hostnames is deprecated)",
      );
    return req.hostname;
  }
  if (req.hostnames.length > 1)
    throw unimplemented(
      "hostnames: one host per call is supported; send each in `hostname` (Peloton's current field)",
    );
  return req.hostnames[0] ?? ""; // empty: the router names `hostname`
}

/** Starts or completes the named host's maintenance (`peloton host maintenance start|complete`). */
export async function maintenance(
  caller: Caller,
  action: "start" | "complete",
  req: { hostname: string; hostnames: readonly string[] },
): Promise<{ hostname: string }> {
  const hostname = oneHost(req);
  const host =
    action === "start"
      ? await caller.hosts.startMaintenance({ hostname })
      : await caller.hosts.completeMaintenance({ hostname });
  return { hostname: host.hostname };
}

const NO_HOST_POOLS =
  "host pools do not exist in this scheduler: every host offers to every resource pool (place work with constraints on host attributes)";

/** What a HostService method the table does not serve answers, in either version. */
export function missingHostMethod(method: string): string {
  return method.includes("HostPool") || method === "MoveHosts"
    ? `HostService.${method}: ${NO_HOST_POOLS}`
    : `HostService.${method} is not served yet`;
}
