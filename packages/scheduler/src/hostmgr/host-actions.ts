/**
 * The operator's host maintenance, owned by the host manager (Peloton's
 * StartMaintenance and CompleteMaintenance): start puts the host DRAINING
 * with goal DOWN (nothing new is placed there; the maintenance loop evicts
 * its tasks and takes it DOWN on the cluster), complete sets the goal back
 * to UP (the loop ends the cluster's maintenance and marks it UP). Each
 * writes the host's state, its maintenance history row and its audit row
 * in one transaction, like job actions (jobmgr/actions.ts); the API only
 * words the outcome.
 */
import type { HostState } from "@peloton/engine";
import type { HostRecord, StorageGateway } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";

export type HostAction = "startMaintenance" | "completeMaintenance";

export type HostActionFailure =
  | { kind: "not_found" }
  /** The host is not in a state the action starts from. */
  | { kind: "invalid_state"; state: HostState; goalState: HostState };

export type HostActionResult =
  | { ok: true; host: HostRecord }
  | { ok: false; failure: HostActionFailure };

const DEFAULT_REASON: Record<HostAction, string> = {
  startMaintenance: "maintenance started",
  completeMaintenance: "maintenance completed",
};

/** Starts or completes maintenance of `hostname` for `acting`; `reason` defaults to "<...> by <login>". */
export async function actOnHost(
  gateway: StorageGateway,
  hostname: string,
  action: HostAction,
  acting: Acting,
  reason = "",
): Promise<HostActionResult> {
  const why = reason || `${DEFAULT_REASON[action]} by ${acting.login}`;
  const change = await gateway.transaction(async (tx) => {
    const by = { login: acting.login, via: acting.via };
    const c =
      action === "startMaintenance"
        ? await tx.hostMaintenance.start(hostname, by, why)
        : await tx.hostMaintenance.complete(hostname, by, why);
    if (c.ok) {
      await tx.audit.record({
        actor: acting.login,
        via: acting.via,
        action: `host.${action}`,
        targetType: "host",
        targetId: hostname,
        before: { state: c.before.state, goalState: c.before.goalState },
        after: { state: c.after.state, goalState: c.after.goalState, reason: why },
      });
    }
    return c;
  });
  if (change.ok) return { ok: true, host: change.after };
  return {
    ok: false,
    failure:
      change.kind === "not_found"
        ? { kind: "not_found" }
        : { kind: "invalid_state", state: change.state, goalState: change.goalState },
  };
}
