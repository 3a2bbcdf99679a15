/**
 * Persistent volumes the cluster still offers but no instance wants any
 * more: their instance was deleted (the job deleted, or scaled down). Each
 * goes back in one ACCEPT of the offer that carries it: DESTROY (volume →
 * reserved disk), then UNRESERVE (→ the agent's free disk); its row is then
 * marked DELETED. Without this, a deleted stateful job would keep its disk
 * reserved on its hosts for good.
 *
 * Only volumes reserved for our role and known to the database are
 * considered; one the database does not know is left alone (and said once),
 * since it may belong to another framework in the same role.
 */
import { type Offer, type OfferOperation, type Resource, reservationRole } from "@peloton/mesos";
import type { StorageGateway } from "@peloton/storage";
import type { Logger } from "../../common/logger.ts";

export interface OfferedVolume {
  offerId: string;
  agentId: string;
  hostname: string;
  persistenceId: string;
  resource: Resource;
}

/** The persistent volumes reserved for `role` in these offers. */
export function offeredVolumes(offers: readonly Offer[], role: string): OfferedVolume[] {
  const out: OfferedVolume[] = [];
  for (const offer of offers)
    for (const r of offer.resources ?? []) {
      const persistenceId = r.disk?.persistence?.id;
      if (persistenceId === undefined || reservationRole(r) !== role) continue;
      out.push({
        offerId: offer.id.value,
        agentId: offer.agent_id.value,
        hostname: offer.hostname,
        persistenceId,
        resource: r,
      });
    }
  return out;
}

/** DESTROY then UNRESERVE: what CREATE then RESERVE made, undone in reverse. */
export function releaseOperations(volume: Resource): OfferOperation[] {
  // After DESTROY the disk is plain reserved disk: no persistence, no volume
  // (a MOUNT or PATH disk keeps its source).
  const { disk, ...rest } = volume;
  const reserved: Resource =
    disk?.source !== undefined ? { ...rest, disk: { source: disk.source } } : rest;
  return [
    { type: "DESTROY", destroy: { volumes: [volume] } },
    { type: "UNRESERVE", unreserve: { resources: [reserved] } },
  ];
}

export interface VolumeCleanupDeps {
  gateway: StorageGateway;
  role: string;
  log: Logger;
  /** Takes the offer out of the pool (undefined when leased or gone). */
  take: (offerId: string, agentId: string) => Offer | undefined;
  accept: (offerIds: string[], operations: OfferOperation[]) => Promise<void>;
}

export class VolumeCleanup {
  /** Persistence ids being released, so a re-offer meanwhile does not send a second ACCEPT. */
  private readonly releasing = new Set<string>();
  private readonly unknownSaid = new Set<string>();

  constructor(private readonly deps: VolumeCleanupDeps) {}

  /** Looks at new offers; releases the volumes no instance wants. Never throws. */
  async check(offers: readonly Offer[]): Promise<void> {
    const volumes = offeredVolumes(offers, this.deps.role).filter(
      (v) => !this.releasing.has(v.persistenceId),
    );
    if (volumes.length === 0) return;
    try {
      const standing = new Map(
        (await this.deps.gateway.volumes.standing(volumes.map((v) => v.persistenceId))).map((s) => [
          s.id,
          s.unwanted,
        ]),
      );
      const byOffer = new Map<string, OfferedVolume[]>();
      for (const v of volumes) {
        const unwanted = standing.get(v.persistenceId);
        if (unwanted === undefined) this.sayUnknown(v);
        else if (unwanted) byOffer.set(v.offerId, [...(byOffer.get(v.offerId) ?? []), v]);
      }
      await Promise.all([...byOffer.values()].map((vs) => this.release(vs)));
    } catch (err) {
      this.deps.log.error({ err }, "could not check the offered volumes; next offer tries again");
    }
  }

  private async release(volumes: OfferedVolume[]): Promise<void> {
    const { offerId, agentId, hostname } = volumes[0]!;
    // A leased offer is placement's now; the volume comes back with a later offer.
    if (this.deps.take(offerId, agentId) === undefined) return;
    const ids = volumes.map((v) => v.persistenceId);
    for (const id of ids) this.releasing.add(id);
    try {
      await this.deps.accept(
        [offerId],
        volumes.flatMap((v) => releaseOperations(v.resource)),
      );
      await this.deps.gateway.volumes.markDeleted(ids);
      this.deps.log.info(
        { volumes: ids, host: hostname },
        "volumes of deleted instances destroyed",
      );
    } catch (err) {
      this.deps.log.warn(
        { err, volumes: ids, host: hostname },
        "could not destroy volumes of deleted instances; a later offer tries again",
      );
    } finally {
      for (const id of ids) this.releasing.delete(id);
    }
  }

  /** A volume of our role the database does not know: left alone, said once. */
  private sayUnknown(v: OfferedVolume): void {
    if (this.unknownSaid.has(v.persistenceId)) return;
    this.unknownSaid.add(v.persistenceId);
    this.deps.log.warn(
      { volume: v.persistenceId, host: v.hostname },
      "the cluster offers a volume of our role the database does not know; left alone",
    );
  }
}
