/**
 * The operator's host actions, owned by the host manager: drain (no new
 * tasks; the drain loop moves the host on to DRAINED once its tasks are
 * gone) and bring-up. Each writes the host's state and its audit row in one
 * transaction, like job actions (jobmgr/actions.ts) and pool changes
 * (resmgr/respool/service.ts); the API only words the outcome.
 */
import type { HostState } from "@peloton/engine";
import type { HostRecord, StorageGateway } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";

export type HostAction = "drain" | "up";

export type HostActionFailure =
  | { kind: "not_found" }
  /** The host is not in a state the action starts from (DOWN, or already there). */
  | { kind: "invalid_state"; state: HostState };

export type HostActionResult =
  | { ok: true; host: HostRecord }
  | { ok: false; failure: HostActionFailure };

const TARGET: Record<HostAction, "DRAINING" | "UP"> = { drain: "DRAINING", up: "UP" };
const AUDIT_ACTION: Record<HostAction, string> = { drain: "host.drain", up: "host.up" };
const DEFAULT_REASON: Record<HostAction, string> = { drain: "drained", up: "brought up" };

/** Drains or brings up `hostname` for `acting`; `reason` defaults to "<drained|brought up> by <login>". */
export async function actOnHost(
  gateway: StorageGateway,
  hostname: string,
  action: HostAction,
  acting: Acting,
  reason = "",
): Promise<HostActionResult> {
  const why = reason || `${DEFAULT_REASON[action]} by ${acting.login}`;
  const change = await gateway.transaction(async (tx) => {
    const c = await tx.hosts.changeState(hostname, TARGET[action], why);
    if (c.ok) {
      await tx.audit.record({
        actor: acting.login,
        via: acting.via,
        action: AUDIT_ACTION[action],
        targetType: "host",
        targetId: hostname,
        before: { state: c.before.state },
        after: { state: c.after.state, reason: why },
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
        : { kind: "invalid_state", state: change.state },
  };
}
