/**
 * RESERVE, UNRESERVE, CREATE and DESTROY against the resources of an ACCEPT.
 * Each converts resources in place, in the offer pool and in the agent's
 * total alike, so the agent's ledger stays balanced:
 *   RESERVE   unreserved        → reserved(role)
 *   CREATE    reserved disk     → persistent volume (offered back to the role)
 *   DESTROY   persistent volume → reserved disk
 *   UNRESERVE reserved(role)    → unreserved
 * Returns a reason when the operation is invalid (it is then skipped, as Mesos does).
 */
import type { Resource } from "../proto/messages.ts";
import type { OfferOperation } from "../proto/operations.ts";
import type { ResourceBag } from "../resources/bag.ts";
import {
  persistenceId,
  reservationRole,
  UNRESERVED,
  unreservedForm,
  withoutVolume,
} from "../resources/identity.ts";
import type { SimAgent } from "./agent.ts";
import { removeDir, volumeDir } from "./sandbox.ts";

export function applyResourceOperation(
  sandboxRoot: string,
  agent: SimAgent,
  pool: ResourceBag,
  op: OfferOperation,
): string | undefined {
  switch (op.type) {
    case "RESERVE": {
      const list = op.reserve?.resources ?? [];
      if (list.some((r) => reservationRole(r) === UNRESERVED))
        return "RESERVE of unreserved resources";
      return convert(agent, pool, list.map(unreservedForm), list);
    }
    case "UNRESERVE": {
      const list = op.unreserve?.resources ?? [];
      if (list.some((r) => persistenceId(r) !== undefined))
        return "UNRESERVE of a persistent volume";
      if (list.some((r) => reservationRole(r) === UNRESERVED))
        return "UNRESERVE of unreserved resources";
      return convert(agent, pool, list, list.map(unreservedForm));
    }
    case "CREATE": {
      const list = op.create?.volumes ?? [];
      for (const v of list) {
        if (v.name !== "disk" || persistenceId(v) === undefined || v.disk?.volume === undefined) {
          return "CREATE needs disk resources with 'disk.persistence' and 'disk.volume'";
        }
        if (reservationRole(v) === UNRESERVED) return "persistent volumes need reserved disk";
        if (agent.total.filter((r) => persistenceId(r) === persistenceId(v)).isEmpty() === false) {
          return `persistent volume ${persistenceId(v)} already exists`;
        }
      }
      return convert(agent, pool, list.map(withoutVolume), list);
    }
    case "DESTROY": {
      const list = op.destroy?.volumes ?? [];
      if (list.some((v) => persistenceId(v) === undefined)) return "DESTROY of a non-volume";
      const problem = convert(agent, pool, list, list.map(withoutVolume));
      if (problem === undefined) {
        for (const v of list) {
          removeDir(volumeDir(sandboxRoot, agent.id, reservationRole(v), persistenceId(v)!));
        }
      }
      return problem;
    }
    default:
      return `${op.type} is not a resource operation`;
  }
}

/** Replaces `from` with `to` in the pool and the agent's total, if the pool holds `from`. */
function convert(
  agent: SimAgent,
  pool: ResourceBag,
  from: readonly Resource[],
  to: readonly Resource[],
): string | undefined {
  if (from.length === 0) return "no resources given";
  if (!pool.contains(from)) return "the offers do not hold the resources to convert";
  pool.subtract(from).add(to);
  agent.total.subtract(from).add(to);
  return undefined;
}
